import { toPointer } from './pointer.ts';
import type { RuleId } from './rules.ts';
import type { Finding, Json, JsonObject } from './types.ts';

/**
 * MCP's behaviour hints with the value a client must assume when one is absent. A change that
 * widens what a tool may do is breaking: it is what a pin exists to catch.
 */
const HINTS: readonly {
  key: string;
  absent: boolean;
  /** The value that means the wider effect. */
  wide: boolean;
  widened: RuleId;
  narrowed: RuleId;
  /** Only meaningful when the tool is not read-only (the MCP schema says so for these two). */
  writesOnly?: boolean;
}[] = [
  {
    key: 'readOnlyHint',
    absent: false,
    wide: false,
    widened: 'effect-read-only-dropped',
    narrowed: 'effect-became-read-only',
  },
  {
    key: 'destructiveHint',
    absent: true,
    wide: true,
    widened: 'effect-became-destructive',
    narrowed: 'effect-no-longer-destructive',
    writesOnly: true,
  },
  {
    key: 'idempotentHint',
    absent: false,
    wide: false,
    widened: 'effect-no-longer-idempotent',
    narrowed: 'effect-became-idempotent',
    writesOnly: true,
  },
  {
    key: 'openWorldHint',
    absent: true,
    wide: true,
    widened: 'effect-opened-world',
    narrowed: 'effect-closed-world',
  },
];

function effective(annotations: JsonObject, key: string, absent: boolean): boolean {
  const v = annotations[key];
  return typeof v === 'boolean' ? v : absent;
}

/** Findings for the behaviour hints whose effective value changed, old → new. */
export function compareEffects(before: JsonObject, after: JsonObject): Finding[] {
  const out: Finding[] = [];
  const readOnlyAfter = effective(after, 'readOnlyHint', false);
  const readOnlyBefore = effective(before, 'readOnlyHint', false);
  for (const h of HINTS) {
    const was = effective(before, h.key, h.absent);
    const now = effective(after, h.key, h.absent);
    const args: Record<string, Json> = { keyword: h.key };
    if (before[h.key] !== undefined) args.old = before[h.key] as Json;
    if (after[h.key] !== undefined) args.new = after[h.key] as Json;
    if (was === now) continue;
    // destructive / idempotent only describe a tool that writes: a read-only tool neither destroys nor repeats.
    if (h.writesOnly && (readOnlyAfter || readOnlyBefore)) {
      if (readOnlyAfter && readOnlyBefore) continue;
      if (readOnlyAfter) continue; // the tool became read-only: reported once, by readOnlyHint
    }
    const widened = now === h.wide;
    out.push({
      rule: widened ? h.widened : h.narrowed,
      verdict: widened ? 'breaking' : 'compatible',
      pointer: toPointer(['annotations', h.key]),
      args,
    });
  }
  return out;
}
