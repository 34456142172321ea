import type { ToolRefusalCode } from '../core/refusal.ts';
import type { NewActivity } from '../store/contract.ts';
import type { Caller } from '../tools/index.ts';
import type { Invocation } from '../tools/invoke.ts';

/** Characters of the arguments' JSON read for a summary; the store keeps fewer still. */
const SUMMARY_READ = 1_000;

/**
 * The arguments in short, as the agent sent them, for a person to read: each top-level
 * argument as `name: value` with the value in JSON (`to: "carol", question: "Lunch?"`),
 * anything else as its JSON, cut. Read from the parsed value, so arguments of a
 * megabyte cost one pass, and a value that cannot be serialised is named, not thrown.
 */
function summarise(args: unknown): string {
  try {
    if (args === undefined) return '';
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return cut(JSON.stringify(args) ?? String(args));
    let out = '';
    for (const [name, value] of Object.entries(args)) {
      out += `${out ? ', ' : ''}${name}: ${JSON.stringify(value) ?? String(value)}`;
      if (out.length > SUMMARY_READ) break;
    }
    return cut(out);
  } catch {
    return '(arguments that are not JSON)';
  }
}

/** What a name the caller cannot call is recorded as: the catalogue's code for "no such thing, or not yours". */
const UNKNOWN_TOOL: ToolRefusalCode = 'not_found';

const cut = (text: string) => (text.length > SUMMARY_READ ? text.slice(0, SUMMARY_READ) : text);

/** The second whose text `isoOf` last wrote, and that text up to its milliseconds ("2026-12-02T14:05:09."). */
let second = NaN;
let secondText = '';

/**
 * `at.toISOString()`, whose cost was most of a call's record (0.4 µs of 0.5): the text of
 * a second is kept while calls arrive within it, and each call's milliseconds written
 * after it. A year of other than four digits (a sign and six) is not kept.
 */
function isoOf(at: Date): string {
  const ms = at.getTime();
  const s = Math.floor(ms / 1000);
  if (s !== second) {
    const iso = at.toISOString();
    if (iso.length !== 24) return iso;
    second = s;
    secondText = iso.slice(0, 20);
  }
  const milli = ms - s * 1000;
  return `${secondText}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/**
 * What one tools/call came to, as the principal's record of it; null for a caller
 * with no principal behind a token (anonymous, or the principal in person).
 * A name the caller cannot call is recorded as refused with `not_found`: the agent
 * was told only that no such tool exists, hidden and nonexistent alike.
 */
export function activityOf(
  caller: Caller,
  tool: string,
  args: unknown,
  result: Invocation,
  at: Date,
): NewActivity | null {
  if (caller.kind !== 'agent') return null;
  let outcome: NewActivity['outcome'] = 'done';
  let code: string | null = null;
  let decisionId: string | null = null;
  if (result.kind === 'unknown_tool') [outcome, code] = ['refused', UNKNOWN_TOOL];
  else if (result.kind === 'refused') [outcome, code] = ['refused', result.refusal.code];
  else if (
    result.data['status'] === 'queued_for_principal' &&
    typeof result.data['decision_id'] === 'string'
  ) {
    outcome = 'queued';
    code = typeof result.data['reason_code'] === 'string' ? result.data['reason_code'] : null;
    decisionId = result.data['decision_id'];
  }
  return {
    principalId: caller.principal.id,
    tokenId: caller.token.id,
    tool,
    outcome,
    code,
    decisionId,
    summary: summarise(args),
    at: isoOf(at),
  };
}
