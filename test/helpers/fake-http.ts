import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ANSWERED, pipeline, type Answered, type Step } from '../../src/core/pipeline.ts';

/** What a step wrote back: status, headers, body. */
export interface Written {
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

/**
 * A request and its response, without a socket: enough for a step, which reads the
 * method, URL, headers, address and body, and writes a status, headers and a body.
 */
export function fakeHttp(
  init: {
    method?: string;
    url?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    remoteAddress?: string;
    /** The whole body is already in (the parser is done with it), as for most small posts. */
    arrived?: boolean;
  } = {},
): { req: IncomingMessage; res: ServerResponse; written: Written } {
  const body = init.body === undefined ? [] : [Buffer.from(init.body)];
  let stream: Readable = Readable.from(body);
  if (init.arrived) {
    stream = new Readable({ read() {} });
    for (const chunk of body) stream.push(chunk);
    stream.push(null);
  }
  const req = Object.assign(stream, {
    complete: init.arrived === true,
    method: init.method ?? 'GET',
    url: init.url ?? '/',
    headers: Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    socket: { remoteAddress: init.remoteAddress ?? '127.0.0.1' },
  }) as unknown as IncomingMessage;
  const written: Written = { status: null, headers: {}, body: '' };
  const res = {
    headersSent: false,
    /** Headers as an object, or as Node also takes them: one flat array of names and values. */
    writeHead(status: number, headers: Record<string, string | string[]> | string[] = {}) {
      written.status = status;
      const pairs = Array.isArray(headers)
        ? headers.flatMap((v, i) => (i % 2 ? [] : [[v, headers[i + 1]] as const]))
        : Object.entries(headers);
      for (const [k, v] of pairs) written.headers[k.toLowerCase()] = String(v);
      res.headersSent = true;
      return res;
    },
    write(chunk: string | Buffer) {
      written.body += chunk.toString();
      return true;
    },
    end(chunk?: string | Buffer) {
      if (chunk !== undefined) written.body += chunk.toString();
      return res;
    },
    setHeader(k: string, v: string) {
      written.headers[k.toLowerCase()] = v;
    },
  };
  return { req, res: res as unknown as ServerResponse, written };
}

/**
 * Runs one step in a pipeline of two: the step, then a spy standing for everything after
 * it. `next` says whether the spy ran, that is, whether the step handed the request on.
 */
export async function runStep<In, Out>(step: Step<In, Out>, ctx: In): Promise<{ next: boolean; out?: Out }> {
  const seen: { next: boolean; out?: Out } = { next: false };
  const spy: Step<Out, never> = {
    name: 'spy',
    run(out): Answered {
      seen.next = true;
      seen.out = out;
      return ANSWERED;
    },
  };
  await pipeline<In>().then(step).end(spy).run(ctx);
  return seen;
}
