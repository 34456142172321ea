import { echo } from '../untrusted/index.ts';

/**
 * No error leaves /mcp carrying what a caller sent raw or uncut, including the SDK's own.
 * The SDK builds several of its messages from the request: a header and body that disagree
 * are both repeated ("the body names method …"), an unsupported MCP-Protocol-Version header
 * is repeated as sent, and `data` holds the same values again. A caller needs no credential
 * to reach these, so each would carry whatever payload it chose (a bidi override, escape
 * sequences, kilobytes of text) into a client's log or a model's context. Rather than trust
 * every message the SDK may ever build, every JSON-RPC error it answers is bounded here, at
 * the edge: its message made safe as any echo is (src/untrusted/echo.ts) and cut to
 * MESSAGE_MAX with "…", and every string, list and object in its `data` bounded the same way.
 * Results pass untouched.
 */

/** Longest error message, in code points of sanitised text: every message Warden writes is shorter. */
export const MESSAGE_MAX = 320;
/** Longest string inside an error's `data`. */
const DATA_STRING_MAX = 64;
/** Most entries of a list or keys of an object inside `data`, and how deep it may nest. */
const DATA_ENTRIES_MAX = 16;
const DATA_DEPTH_MAX = 4;

/** A character an earlier echo made visible: kept as it is, so bounding twice changes nothing. */
const SHOWN = /(\[U\+[0-9A-F]{4,6}\])/;
const codePoints = (s: string) => [...s].length;

/**
 * A text made safe as an echo is and cut to `max`, leaving what Warden's own echo already
 * made visible as it is (its messages pass through unchanged; a caller's raw text does not).
 */
function bounded(text: string, max: number): string {
  let out = '';
  let left = max;
  for (const part of text.split(SHOWN)) {
    if (!part) continue;
    const whole = SHOWN.test(part) && part.startsWith('[U+') ? part : echo(part, part.length * 10 + 16);
    if (codePoints(whole) > left)
      return out + (whole === part && part.startsWith('[U+') ? '…' : echo(part, left));
    out += whole;
    left -= codePoints(whole);
  }
  return out;
}

/** One JSON-RPC error object, bounded: its code kept, its message and data made safe. */
export function boundError(error: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { code: error['code'] };
  out['message'] = bounded(typeof error['message'] === 'string' ? error['message'] : '', MESSAGE_MAX);
  if ('data' in error) out['data'] = boundData(error['data'], 0);
  return out;
}

function boundData(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return bounded(value, DATA_STRING_MAX);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= DATA_DEPTH_MAX) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, DATA_ENTRIES_MAX).map((v) => boundData(v, depth + 1));
    return value.length > DATA_ENTRIES_MAX ? [...kept, '…'] : kept;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, DATA_ENTRIES_MAX))
    out[bounded(k, DATA_STRING_MAX)] = boundData(v, depth + 1);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON-RPC message (or a batch of them) with every error bounded; the same value when none had one. */
function boundMessage(message: unknown): unknown {
  if (Array.isArray(message)) return message.map(boundMessage);
  if (!isObject(message) || !isObject(message['error'])) return message;
  return { ...message, error: boundError(message['error']) };
}

/** The text of a JSON body with its errors bounded; as it came when it holds no error. */
function boundJsonText(text: string): string {
  if (!text.includes('"error"')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(boundMessage(parsed));
}

/** One server-sent event with the JSON of its data lines bounded. */
function boundEvent(event: string): string {
  if (!event.includes('"error"')) return event;
  return event
    .split('\n')
    .map((line) => (line.startsWith('data:') ? `data: ${boundJsonText(line.slice(5).trimStart())}` : line))
    .join('\n');
}

/** A stream of server-sent events, each bounded as it completes (an event ends with a blank line). */
function boundEvents(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let pending = '';
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const end = pending.lastIndexOf('\n\n');
        if (end < 0) return;
        const complete = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        controller.enqueue(encoder.encode(complete.split('\n\n').map(boundEvent).join('\n\n')));
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending) controller.enqueue(encoder.encode(boundEvent(pending)));
      },
    }),
  );
}

/** The SDK's answer with every JSON-RPC error in it bounded (JSON or an event stream); anything else as it came. */
export async function boundSdkErrors(response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const init = { status: response.status, statusText: response.statusText, headers };
  if (type.startsWith('application/json')) return new Response(boundJsonText(await response.text()), init);
  if (type.startsWith('text/event-stream')) return new Response(boundEvents(response.body), init);
  return response;
}
