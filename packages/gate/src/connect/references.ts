import { homedir } from 'node:os';
import { sep } from 'node:path';
import type { Reference } from './types.ts';

/** The forms of `${…}` a client fills in; any other form it sends as written. */
export type ReferenceForm = 'input' | 'env-prefixed' | 'env-plain' | 'editor-variable';

/** What each client fills in, from its documentation. Claude Desktop fills in none. */
export const FORMS_BY_CLIENT = {
  vscode: ['input', 'env-prefixed', 'editor-variable'],
  cursor: ['env-prefixed', 'editor-variable'],
  'claude-code': ['env-plain'],
  'claude-desktop': [],
  /** A file whose client is not known: every form, so nothing is taken for literal by mistake. */
  unknown: ['input', 'env-prefixed', 'env-plain', 'editor-variable'],
} as const satisfies Record<string, readonly ReferenceForm[]>;

/** What the doctor knows when it fills in `${…}` references the way an MCP client would. */
export interface ReferenceContext {
  env: Record<string, string | undefined>;
  /** Values given with --input ID=VALUE, standing in for VS Code's prompts. */
  inputs: ReadonlyMap<string, string>;
  /** VS Code `inputs` declarations: id → the description the editor prompts with. */
  inputDescriptions: ReadonlyMap<string, string>;
  workspaceFolder: string;
  forms: readonly ReferenceForm[];
}

export interface Expanded {
  /** The value with every reference filled in, or null if one could not be. */
  value: string | null;
  references: Reference[];
}

const REFERENCE = /\$\{([^}]*)\}/g;

/**
 * Fills in references the way the configuration's client does: VS Code's `${input:id}`,
 * `${env:NAME}` and editor variables (`${workspaceFolder}`, `${userHome}`,
 * `${pathSeparator}`); Cursor's `${env:NAME}` and editor variables; Claude Code's
 * `${NAME}` and `${NAME:-default}`. A form the client does not fill in stays as
 * written, as the client would send it. Every reference is returned, so none is
 * dropped silently.
 */
export function expandReferences(raw: string, field: string, ctx: ReferenceContext): Expanded {
  const references: Reference[] = [];
  let complete = true;
  const value = raw.replace(REFERENCE, (text, body: string) => {
    const found = resolveOne(body, ctx);
    const literal = !ctx.forms.includes(found.form);
    const ref: Reference = {
      field,
      text,
      kind: found.kind,
      name: found.name,
      resolved: !literal && found.value !== null,
      literal,
    };
    if (found.defaulted && !literal) ref.defaulted = true;
    const description = found.kind === 'input' ? ctx.inputDescriptions.get(found.name) : undefined;
    if (description !== undefined) ref.description = description;
    references.push(ref);
    if (literal) return text;
    if (found.value === null) {
      complete = false;
      return text;
    }
    return found.value;
  });
  return { value: complete ? value : null, references };
}

function resolveOne(
  body: string,
  ctx: ReferenceContext,
): { kind: Reference['kind']; form: ReferenceForm; name: string; value: string | null; defaulted?: boolean } {
  if (body.startsWith('input:')) {
    const name = body.slice('input:'.length);
    return { kind: 'input', form: 'input', name, value: ctx.inputs.get(name) ?? null };
  }
  if (body.startsWith('env:')) {
    const name = body.slice('env:'.length);
    return { kind: 'env', form: 'env-prefixed', name, value: ctx.env[name] ?? null };
  }
  const variable = (value: string) =>
    ({ kind: 'variable', form: 'editor-variable', name: body, value }) as const;
  switch (body) {
    case 'workspaceFolder':
      return variable(ctx.workspaceFolder);
    case 'userHome':
      return variable(homedir());
    case 'pathSeparator':
    case '/':
      return variable(sep);
  }
  const plain = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
  if (plain) {
    const name = plain[1]!;
    const fallback = plain[2];
    const set = ctx.env[name];
    if (set === undefined && fallback !== undefined)
      return { kind: 'env', form: 'env-plain', name, value: fallback, defaulted: true };
    return { kind: 'env', form: 'env-plain', name, value: set ?? null };
  }
  // ${command:…}, ${config:…} and the like: only the editor can answer them.
  return { kind: 'variable', form: 'editor-variable', name: body, value: null };
}
