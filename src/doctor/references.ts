import { homedir } from 'node:os';
import { sep } from 'node:path';
import type { Reference } from './types.ts';

/** What the doctor knows when it fills in `${…}` references the way an MCP client would. */
export interface ReferenceContext {
  env: Record<string, string | undefined>;
  /** Values given with --input ID=VALUE, standing in for VS Code's prompts. */
  inputs: ReadonlyMap<string, string>;
  /** VS Code `inputs` declarations: id → the description the editor prompts with. */
  inputDescriptions: ReadonlyMap<string, string>;
  workspaceFolder: string;
}

export interface Expanded {
  /** The value with every reference filled in, or null if one could not be. */
  value: string | null;
  references: Reference[];
}

const REFERENCE = /\$\{([^}]*)\}/g;

/**
 * Fills in the references MCP clients support: VS Code's `${input:id}`, `${env:NAME}`,
 * `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`; Claude Code's `${NAME}` and
 * `${NAME:-default}`. Every reference is returned, resolved or not, so none is dropped silently.
 */
export function expandReferences(raw: string, field: string, ctx: ReferenceContext): Expanded {
  const references: Reference[] = [];
  let complete = true;
  const value = raw.replace(REFERENCE, (text, body: string) => {
    const found = resolveOne(body, ctx);
    const ref: Reference = {
      field,
      text,
      kind: found.kind,
      name: found.name,
      resolved: found.value !== null,
    };
    const description = found.kind === 'input' ? ctx.inputDescriptions.get(found.name) : undefined;
    if (description !== undefined) ref.description = description;
    references.push(ref);
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
): { kind: Reference['kind']; name: string; value: string | null } {
  if (body.startsWith('input:')) {
    const name = body.slice('input:'.length);
    return { kind: 'input', name, value: ctx.inputs.get(name) ?? null };
  }
  if (body.startsWith('env:')) {
    const name = body.slice('env:'.length);
    return { kind: 'env', name, value: ctx.env[name] ?? null };
  }
  switch (body) {
    case 'workspaceFolder':
      return { kind: 'variable', name: body, value: ctx.workspaceFolder };
    case 'userHome':
      return { kind: 'variable', name: body, value: homedir() };
    case 'pathSeparator':
    case '/':
      return { kind: 'variable', name: body, value: sep };
  }
  const plain = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
  if (plain) {
    const name = plain[1]!;
    const fallback = plain[2];
    return { kind: 'env', name, value: ctx.env[name] ?? fallback ?? null };
  }
  // ${command:…}, ${config:…} and the like: only the editor can answer them.
  return { kind: 'variable', name: body, value: null };
}
