import { expandReferences, type ReferenceContext } from './references.ts';
import { isObject } from './json.ts';
import type { HttpTarget, Reference, StdioTarget, Target } from './types.ts';

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'sse']);

/**
 * Turns one server entry of a client configuration into what the client would run:
 * a URL with headers, or a command with arguments and environment. References are
 * filled in as the client would; a header or variable whose reference cannot be is
 * left out and named in `dropped`, never sent half-filled.
 */
export function targetFromEntry(name: string, raw: unknown, source: string, ctx: ReferenceContext): Target {
  const references: Reference[] = [];
  const dropped: string[] = [];
  const expand = (value: string, field: string): string | null => {
    const e = expandReferences(value, field, ctx);
    references.push(...e.references);
    return e.value;
  };
  const base = { name, source, references, dropped };
  if (!isObject(raw)) return invalid(base, 'the entry is not an object');
  const type = typeof raw['type'] === 'string' ? raw['type'] : undefined;
  const isHttp = type !== undefined ? HTTP_TYPES.has(type) : typeof raw['url'] === 'string';

  if (isHttp) {
    if (typeof raw['url'] !== 'string') return invalid(base, `type "${type}" needs a "url"`);
    const url = expand(raw['url'], 'url');
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(isObject(raw['headers']) ? raw['headers'] : {})) {
      if (typeof value !== 'string') continue;
      const filled = expand(value, `headers.${key}`);
      if (filled === null) dropped.push(`headers.${key}`);
      else headers[key] = filled;
    }
    const target: HttpTarget = {
      ...base,
      kind: 'http',
      transport: type === 'sse' ? 'sse' : 'http',
      url: url ?? raw['url'],
      headers,
    };
    if (url === null) target.invalid = 'its url holds a reference that could not be filled in';
    else if (!URL.canParse(url)) target.invalid = `"${url}" is not a URL`;
    return target;
  }

  if (type !== undefined && type !== 'stdio') return invalid(base, `unknown server type "${type}"`);
  if (typeof raw['command'] !== 'string')
    return invalid(base, 'the entry has neither a "url" nor a "command"');
  const command = expand(raw['command'], 'command');
  const args = (Array.isArray(raw['args']) ? raw['args'] : [])
    .filter((a): a is string => typeof a === 'string')
    .map((a, i) => expand(a, `args[${i}]`));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(isObject(raw['env']) ? raw['env'] : {})) {
    if (typeof value !== 'string') continue;
    const filled = expand(value, `env.${key}`);
    if (filled === null) dropped.push(`env.${key}`);
    else env[key] = filled;
  }
  const cwd = typeof raw['cwd'] === 'string' ? expand(raw['cwd'], 'cwd') : undefined;
  const target: StdioTarget = {
    ...base,
    kind: 'stdio',
    command: command ?? raw['command'],
    args: args.map((a, i) => a ?? String((raw['args'] as unknown[])[i])),
    env,
    ...(cwd ? { cwd } : {}),
  };
  if (command === null || args.includes(null) || cwd === null)
    target.invalid = 'its command line holds a reference that could not be filled in';
  return target;
}

function invalid(base: Omit<StdioTarget, 'kind' | 'command' | 'args' | 'env'>, why: string): StdioTarget {
  return { ...base, kind: 'stdio', command: '', args: [], env: {}, invalid: why };
}
