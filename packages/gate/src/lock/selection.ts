// How a reviewed change is named on the command line and in a printed accept command:
// `--tool NAME[@HASH]` or `--item KIND:NAME[@HASH]`, bound to the hash that was reviewed.
import type { ItemReport } from '../compat/index.ts';
import { UsageError } from '../host/io.ts';

/** A reviewed change named on the command line: `--tool NAME[@HASH]` or `--item KIND:NAME[@HASH]`. */
export interface Selection {
  kind: string;
  name: string;
  hash?: string;
}

const KINDS = [
  'tool',
  'prompt',
  'resource',
  'resource-template',
  'skill',
  'instructions',
  'server',
  'launch',
];
/** Items of which a server has one: named by kind alone. */
const SINGLE = new Set(['instructions', 'server', 'launch']);
const HASH = /^(?:sha256:)?([0-9a-f]{8,64})$/;

/** Parses a selection; the hash follows the last `@`, so names and URIs may hold `@` and `:`. */
export function parseSelection(value: string, kind?: string): Selection {
  let rest = value;
  let k = kind;
  if (!k) {
    const colon = value.indexOf(':');
    const prefix = colon < 0 ? value.replace(/@.*$/, '') : value.slice(0, colon);
    if (!KINDS.includes(prefix))
      throw new UsageError(`--item ${value}: expected KIND:NAME[@HASH], KIND one of ${KINDS.join(', ')}`);
    k = prefix;
    rest = colon < 0 ? value.slice(prefix.length) : value.slice(colon + 1);
  }
  const at = rest.lastIndexOf('@');
  const tail = at < 0 ? undefined : rest.slice(at + 1);
  const name = SINGLE.has(k) ? `(${k})` : at < 0 ? rest : rest.slice(0, at);
  if (tail === undefined) return { kind: k, name };
  if (tail === 'removed') return { kind: k, name, hash: 'removed' };
  const hex = HASH.exec(tail)?.[1];
  if (hex) return { kind: k, name, hash: hex };
  if (SINGLE.has(k)) throw new UsageError(`${value}: expected ${k}@sha256:HEX or ${k}@removed`);
  return { kind: k, name: rest };
}

export function matchesHash(report: ItemReport, hash: string | undefined): boolean {
  if (hash === undefined) return true;
  if (report.newHash === null) return hash === 'removed';
  return report.newHash.replace(/^sha256:/, '').startsWith(hash);
}

/** The accept command that blesses exactly this reviewed change (bound to its new hash). */
export function acceptArgument(report: ItemReport): string {
  const hash = report.newHash ?? 'removed';
  if (report.kind === 'tool') return `--tool ${quote(`${report.name}@${hash}`)}`;
  if (SINGLE.has(report.kind)) return `--item ${report.kind}@${hash}`;
  return `--item ${quote(`${report.kind}:${report.name}@${hash}`)}`;
}

function quote(arg: string): string {
  return /^[\w@:./+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
