import { sendJson } from '../http-io.ts';
import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import { tooManyRequests, type RateDecision, type RateGate, type RateKind } from '../rate-limit.ts';
import type { Parsed } from './exchange.ts';

/**
 * Messages one POST may carry. Each tool's answer is held to its page budget (64 KiB of
 * items, tools/paging.ts), so the answer to one HTTP request stays near a megabyte at
 * most, whatever the caller batches; a larger batch is refused before any of it runs.
 */
export const MAX_BATCH_MESSAGES = 10;

const isToolCall = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call';

/**
 * Limits count messages, not HTTP requests. The rate-limit step took one message from the
 * caller's bucket before the body was read; here a batch takes one more for each further
 * message it holds, and each tools/call of an agent takes one from its token's record
 * bucket (the calls it may put on its principal's Activity). All of a request's messages
 * pass or none does: a refused batch runs nothing, and says how long to wait.
 */
export function countMessages(limiter: RateGate): Step<Parsed> {
  return {
    name: 'count-messages',
    run(x) {
      const message = x.message;
      const batch = Array.isArray(message) ? message : null;
      if (batch !== null && batch.length > MAX_BATCH_MESSAGES) return refuseLargeBatch(x, batch.length);
      const messages = batch === null ? 1 : batch.length;
      const calls = batch === null ? (isToolCall(message) ? 1 : 0) : batch.filter(isToolCall).length;
      const agent = x.auth.kind === 'agent' ? x.auth.credential.token.id : null;
      if (messages <= 1 && (calls === 0 || agent === null)) return x;
      const kind: RateKind = agent !== null ? 'token' : 'anonymous';
      const key = agent ?? x.req.socket.remoteAddress ?? 'unknown';
      const more = messages > 1 ? limiter.take(kind, key, messages - 1) : OK;
      const then = (d: RateDecision): Parsed | Answered | Promise<Parsed | Answered> => {
        if (!d.ok) return refuse(x, kind, d, messages);
        if (agent === null || calls === 0) return x;
        const recorded = limiter.take('record', agent, calls);
        return recorded instanceof Promise
          ? recorded.then((r) => (r.ok ? x : refuse(x, 'record', r, calls)))
          : recorded.ok
            ? x
            : refuse(x, 'record', recorded, calls);
      };
      return more instanceof Promise ? more.then(then) : then(more);
    },
  };
}

const OK: RateDecision = { ok: true };

function refuse(x: Parsed, kind: RateKind, d: Extract<RateDecision, { ok: false }>, count: number): Answered {
  sendJson(x.res, 429, tooManyRequests(kind, d, count), { 'Retry-After': String(d.retryAfterSeconds) });
  return ANSWERED;
}

function refuseLargeBatch(x: Parsed, size: number): Answered {
  sendJson(x.res, 413, {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: this batch holds ${size} messages, and one POST may carry at most ${MAX_BATCH_MESSAGES} (so that its answer stays bounded). Nothing in it ran: send the messages in batches of ${MAX_BATCH_MESSAGES} or fewer.`,
      data: { reason: 'batch_too_large', max_messages: MAX_BATCH_MESSAGES },
    },
  });
  return ANSWERED;
}
