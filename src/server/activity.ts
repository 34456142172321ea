import type { NewActivity } from '../store/contract.ts';
import type { Caller } from '../tools/index.ts';
import type { Invocation } from '../tools/invoke.ts';

/** Characters of the arguments' JSON read for a summary; the store keeps fewer still. */
const SUMMARY_READ = 1_000;

/**
 * The arguments in short, as the agent sent them: their JSON, cut. Read from the
 * parsed value, so an argument object of a megabyte costs one serialisation, and a
 * value that cannot be serialised is named, not thrown.
 */
function summarise(args: unknown): string {
  if (args === undefined) return '{}';
  try {
    const json = JSON.stringify(args) ?? String(args);
    return json.length > SUMMARY_READ ? json.slice(0, SUMMARY_READ) : json;
  } catch {
    return '(arguments that are not JSON)';
  }
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
  const base = {
    principalId: caller.principal.id,
    tokenId: caller.token.id,
    tool,
    summary: summarise(args),
    at: at.toISOString(),
  };
  switch (result.kind) {
    case 'unknown_tool':
      return { ...base, outcome: 'refused', code: 'not_found', decisionId: null };
    case 'refused':
      return { ...base, outcome: 'refused', code: result.refusal.code, decisionId: null };
    case 'ok': {
      const d = result.data;
      if (d['status'] === 'queued_for_principal' && typeof d['decision_id'] === 'string') {
        const code = typeof d['reason_code'] === 'string' ? d['reason_code'] : null;
        return { ...base, outcome: 'queued', code, decisionId: d['decision_id'] };
      }
      return { ...base, outcome: 'done', code: null, decisionId: null };
    }
  }
}
