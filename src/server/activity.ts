import type { ToolRefusalCode } from '../core/refusal.ts';
import type { NewActivity } from '../store/contract.ts';
import type { Registry } from '../core/registry.ts';
import type { Caller, ToolContext } from '../tools/index.ts';
import type { Invocation } from '../tools/invoke.ts';

/**
 * What the summary of a call's arguments may hold, in characters; the store keeps as much
 * (ACTIVITY_SUMMARY_MAX, store/activity.ts).
 */
export const SUMMARY_BUDGET = 600;
/** A naming argument (whom, which decision, which question) longer than this is cut: no valid one is. */
const NAMING_MAX = 120;
/** The least a long text keeps of itself, however many share the budget. */
const TEXT_MIN = 40;
/** A string argument whose schema allows more than this is long text; anything shorter names something. */
const LONG_TEXT = 200;

/** A tool's arguments in the order the record shows them: what names someone or something first. */
interface Order {
  naming: readonly string[];
  text: readonly string[];
}

const ORDERS = new WeakMap<object, Order>();

/** From the tool's input schema, in its declared order, computed once per schema. */
function orderOf(schema: Record<string, unknown> | undefined): Order {
  if (schema === undefined) return { naming: [], text: [] };
  let order = ORDERS.get(schema);
  if (order === undefined) {
    const props = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    const naming: string[] = [];
    const text: string[] = [];
    for (const [key, p] of Object.entries(props)) {
      const long =
        p['type'] === 'string' && (typeof p['maxLength'] !== 'number' || p['maxLength'] > LONG_TEXT);
      // A handle is a string with a pattern and no length: it names someone.
      (long && p['pattern'] === undefined ? text : naming).push(key);
    }
    ORDERS.set(schema, (order = { naming, text }));
  }
  return order;
}

/** JSON of a value, cut to `max` characters with a visible mark of how much is left out. */
function shown(value: unknown, max: number): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = '(not JSON)';
  }
  if (json.length <= max) return json;
  // The mark counts toward `max`; a cut never splits a surrogate pair.
  let end = Math.max(1, max - `… (+${json.length} characters)`.length);
  if (/[\uD800-\uDBFF]/.test(json[end - 1]!)) end--;
  const kept = json.slice(0, end);
  return `${kept}… (+${json.length - kept.length} characters)`;
}

/**
 * The arguments in short, for a person to read: `name: value` with each value in JSON
 * (`to: "carol", question: "Lunch?"`). Whatever the agent's key order, the arguments that
 * say whom or what the act concerned (the addressee, the decision, the question id, the
 * verdict: everything but long text, by the tool's schema) come first and whole; then the
 * long texts, sharing what is left of the budget, each cut with a mark saying how much was
 * left out; then anything the schema does not declare. A value that cannot be serialised
 * is named, not thrown.
 */
export function summarise(args: unknown, schema?: Record<string, unknown>): string {
  if (args === undefined) return '';
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return shown(args, SUMMARY_BUDGET);
  const given = args as Record<string, unknown>;
  const order = orderOf(schema);
  const declared = new Set([...order.naming, ...order.text]);
  const parts: string[] = [];
  let used = 0;
  const put = (key: string, max: number) => {
    const part = `${key}: ${shown(given[key], max)}`;
    parts.push(part);
    used += part.length + 2;
  };
  for (const key of order.naming) if (Object.hasOwn(given, key)) put(key, NAMING_MAX);
  const texts = order.text.filter((k) => Object.hasOwn(given, k));
  const others = Object.keys(given).filter((k) => !declared.has(k));
  const rest = [...texts, ...others];
  for (let i = 0; i < rest.length; i++) {
    const key = rest[i]!;
    const share = Math.floor((SUMMARY_BUDGET - used) / (rest.length - i)) - key.length - 4;
    put(key, Math.max(TEXT_MIN, share));
  }
  return parts.join(', ');
}

/** What a name the caller cannot call is recorded as: the catalogue's code for "no such thing, or not yours". */
const UNKNOWN_TOOL: ToolRefusalCode = 'not_found';

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
  registry?: Registry<ToolContext>,
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
    summary: summarise(args, registry?.find(tool, caller.permissions.effective)?.spec.inputSchema),
    at: isoOf(at),
  };
}
