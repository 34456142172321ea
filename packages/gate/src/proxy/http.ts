import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { readBody } from '../host/http-body.ts';
// Messages are written by jsonText, not JSON.stringify: a relayed schema may nest deeper than its stack allows.
import { jsonText } from '../compat/index.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import type { Enforcer } from '../enforce/enforcer.ts';
import { batchAllowed, batchRefused, invalidRequest, judgeMessages } from '../enforce/judge.ts';
import * as onDemand from '../enforce/list-on-demand.ts';

/** Largest request an agent may send through the proxy, and largest JSON answer it rewrites. */
const MAX_REQUEST = 4 * 1024 * 1024;
const MAX_JSON_ANSWER = 32 * 1024 * 1024;
/** Largest single server-sent event the proxy holds while it decides whether to rewrite it. */
const MAX_EVENT = 32 * 1024 * 1024;

/**
 * Request headers never forwarded upstream: hop-by-hop ones, and the agent's own credentials
 * and cookies (the upstream's credentials come from --header alone, so a token the agent holds
 * for the proxy can never reach a third-party server, nor the other way round).
 */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
  'authorization',
  'cookie',
]);
/** Response headers not passed back: hop-by-hop, re-computed, or upstream's own cookies. */
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'set-cookie',
]);

interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
  result?: { tools?: unknown; [k: string]: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Forwards Streamable HTTP to one upstream, judging tools/list and tools/call on the way. */
class HttpProxy {
  /** tools/list requests in flight, by session and id: their answers are filtered. */
  private readonly lists = new Set<string>();
  /** The proxy's own listing in flight, if any (list-on-demand.ts). */
  private listing: Promise<boolean> | undefined;

  constructor(
    private readonly upstream: URL,
    private readonly headers: Record<string, string>,
    private readonly enforcer: Enforcer,
    private readonly record: string | undefined,
    /** Longest wait for a page of the proxy's own listing. */
    private readonly timeoutMs: number = onDemand.LIST_PAGE_TIMEOUT_MS,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the MCP endpoint is /mcp\n');
      return;
    }
    const session = String(req.headers['mcp-session-id'] ?? '');
    let body: Buffer | undefined;
    let messages: unknown[] = [];
    let batch = false;
    if (req.method === 'POST') {
      const raw = await readBody(req, MAX_REQUEST);
      if (raw === null) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(
          jsonText({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Request too large' } }),
        );
        return;
      }
      body = raw;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        parsed = undefined; // not ours to judge: the server answers malformed input
      }
      batch = Array.isArray(parsed);
      if (Array.isArray(parsed)) messages = parsed;
      else if (isObject(parsed)) messages = [parsed];
    }
    if (batch) {
      // Batches exist up to 2025-03-26 only: under a later revision, one clear error, nothing forwarded.
      const header = req.headers['mcp-protocol-version'];
      const without =
        messages.length === 0
          ? undefined
          : batchAllowed(typeof header === 'string' ? header : undefined, messages);
      if (messages.length === 0 || without !== undefined) {
        const answer =
          without === undefined ? invalidRequest('Invalid Request: empty batch') : batchRefused(without);
        res.writeHead(400, { 'content-type': 'application/json' }).end(jsonText(answer));
        return;
      }
    }
    // A call of a locked tool no listing has judged yet waits for the proxy to list on its own;
    // calls that arrive meanwhile wait for the same listing rather than start their own.
    if (onDemand.unjudgedCalls(messages, this.enforcer).length > 0) {
      this.listing ??= onDemand
        .listAll((cursor) => this.listPage(req, cursor, messages), this.enforcer)
        .finally(() => (this.listing = undefined));
      await this.listing;
    }
    // Calls of withheld tools are answered here and never reach the server.
    const judged = judgeMessages(messages, this.enforcer, (call) => {
      if (this.record) fs.appendFileSync(this.record, `${jsonText(call)}\n`);
    });
    for (const id of judged.lists) this.lists.add(`${session} ${jsonText(id)}`);
    const refused = judged.answered;
    if (refused.length > 0 && judged.forwarded.length === 0) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(jsonText(batch ? refused : refused[0]));
      return;
    }
    if (refused.length > 0) body = Buffer.from(jsonText(judged.forwarded));
    if (refused.length > 0 && judged.requests.length === 0) {
      // Only notifications or responses go on, which the server answers with 202 and no body:
      // the refusals are then the whole answer.
      const status = await this.send(req, body);
      if (status !== undefined && status >= 400) {
        res.writeHead(status === 404 ? 404 : 502, { 'content-type': 'application/json' });
        res.end(jsonText(invalidRequest(`upstream answered ${status}`)));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(jsonText(refused));
      return;
    }
    await this.forward(req, res, session, body, refused);
  }

  /**
   * One page of the server's tools, asked by the proxy itself in the agent's session (its
   * session and revision headers, the proxy's credentials), answered as JSON or as events.
   */
  private async listPage(
    req: IncomingMessage,
    cursor: string | undefined,
    messages: readonly unknown[],
  ): Promise<Record<string, unknown> | undefined> {
    const id = onDemand.ownId();
    const headers = this.upstreamHeaders(req);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    // 2026-07-28 names the method (and a tool) in headers that must match the body.
    headers.delete('mcp-name');
    if (headers.has('mcp-method')) headers.set('mcp-method', 'tools/list');
    try {
      const answer = await fetch(this.upstream, {
        method: 'POST',
        headers,
        body: jsonText(onDemand.listRequest(id, cursor, messages)),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const raw = Buffer.from(await answer.arrayBuffer());
      if (!answer.ok || raw.length > MAX_JSON_ANSWER) return undefined;
      const text = raw.toString('utf8');
      const found: unknown[] = [];
      if ((answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const parser = createParser({
          onEvent: (e) => {
            try {
              found.push(JSON.parse(e.data));
            } catch {
              // not JSON: not the answer
            }
          },
        });
        parser.feed(text);
      } else {
        const parsed: unknown = JSON.parse(text);
        found.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      }
      return onDemand.listResult(found.find((m) => isObject(m) && m.id === id));
    } catch {
      return undefined;
    }
  }

  /** Sends to the server when nothing but the status matters; undefined if it cannot be reached. */
  private async send(req: IncomingMessage, body: Buffer | undefined): Promise<number | undefined> {
    try {
      const answer = await fetch(this.upstream, {
        method: 'POST',
        headers: this.upstreamHeaders(req),
        body: body ? new Uint8Array(body) : undefined,
        redirect: 'manual',
      });
      await answer.arrayBuffer();
      return answer.status;
    } catch {
      return undefined;
    }
  }

  /** The agent's headers less the ones never passed on, with the proxy's own --header values. */
  private upstreamHeaders(req: IncomingMessage): Headers {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || NOT_FORWARDED.has(k)) continue;
      headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    for (const [k, v] of Object.entries(this.headers)) headers.set(k, v);
    return headers;
  }

  private async forward(
    req: IncomingMessage,
    res: ServerResponse,
    session: string,
    body: Buffer | undefined,
    refused: Record<string, unknown>[],
  ): Promise<void> {
    const headers = this.upstreamHeaders(req);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let answer: Response;
    try {
      answer = await fetch(this.upstream, {
        method: req.method ?? 'GET',
        headers,
        body: body && req.method !== 'GET' && req.method !== 'HEAD' ? new Uint8Array(body) : undefined,
        signal: abort.signal,
        redirect: 'manual',
      });
    } catch (err) {
      if (abort.signal.aborted) return;
      res.writeHead(502, { 'content-type': 'application/json' });
      const message = `upstream unreachable: ${err instanceof Error ? err.message : String(err)}`;
      res.end(jsonText({ jsonrpc: '2.0', id: null, error: { code: -32603, message } }));
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!NOT_RETURNED.has(k)) out[k] = v;
    });
    const type = answer.headers.get('content-type') ?? '';
    const sessionNow = answer.headers.get('mcp-session-id') ?? session;
    if (type.startsWith('text/event-stream') && answer.body) {
      res.writeHead(answer.status, out);
      res.flushHeaders();
      await this.pipeEvents(answer.body, res, sessionNow, refused);
      return;
    }
    const raw = Buffer.from(await answer.arrayBuffer());
    let text = raw;
    if (type.startsWith('application/json') && raw.length <= MAX_JSON_ANSWER) {
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        const list = Array.isArray(parsed) ? parsed : [parsed];
        const judged = list.map((m) => this.judgeAnswer(m, sessionNow));
        if (refused.length > 0) judged.push(...refused);
        text = Buffer.from(jsonText(Array.isArray(parsed) || refused.length > 0 ? judged : judged[0]));
      } catch {
        // not JSON after all: passed on as it came
      }
    }
    res.writeHead(answer.status, out);
    res.end(text);
  }

  /** A JSON-RPC answer, with the withheld tools taken out if it answers a tools/list. */
  private judgeAnswer(m: unknown, session: string): unknown {
    if (!isObject(m) || m.id === undefined) return m;
    const key = `${session} ${jsonText(m.id)}`;
    const result = m.result as RpcMessage['result'];
    if (!this.lists.has(key) || !isObject(result) || !Array.isArray(result.tools)) return m;
    this.lists.delete(key);
    return { ...m, result: this.enforcer.filterResult(result) };
  }

  /** Re-emits a server-sent event stream, rewriting only the events that answer a tools/list. */
  private async pipeEvents(
    stream: ReadableStream<Uint8Array>,
    res: ServerResponse,
    session: string,
    refused: Record<string, unknown>[],
  ): Promise<void> {
    const write = (text: string): void => void res.write(text);
    const parser = createParser({
      maxBufferSize: MAX_EVENT,
      onEvent: (e: EventSourceMessage) => {
        let data = e.data;
        try {
          const judged = this.judgeAnswer(JSON.parse(e.data), session);
          data = jsonText(judged);
        } catch {
          // not JSON: passed on unchanged
        }
        write(serializeEvent({ ...e, data }));
      },
      onRetry: (ms) => write(`retry: ${ms}\n\n`),
      onComment: (c) => write(`:${c}\n\n`),
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of Readable.fromWeb(stream as never)) {
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      }
      for (const r of refused) write(serializeEvent({ data: jsonText(r) }));
    } catch {
      // the agent or the server went away: nothing left to pass on
    } finally {
      res.end();
    }
  }
}

function serializeEvent(e: { id?: string; event?: string; data: string }): string {
  let out = '';
  if (e.id !== undefined) out += `id: ${e.id}\n`;
  if (e.event !== undefined) out += `event: ${e.event}\n`;
  for (const line of e.data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** Where the HTTP proxy forwards, with which headers, on which loopback port, recording where. */
export interface HttpProxyOptions {
  url: string;
  headers: Record<string, string>;
  /** 0 or absent: a free port, printed on stderr. */
  port?: number;
  calls?: string;
  /** Longest wait for a page of the proxy's own listing. */
  timeoutMs?: number;
}

/**
 * `warden-gate proxy --url`: serves Streamable HTTP on loopback and forwards to a remote MCP
 * server. It forwards bytes and headers rather than speaking the protocol itself, so either
 * era passes (2025-11-25 with its Mcp-Session-Id, 2026-07-28 stateless); it reads only what it
 * must judge: tools/list answers (filtered by the lock) and tools/call requests (recorded,
 * and refused here for a withheld tool). Runs until SIGINT or SIGTERM.
 */
export async function serveHttpProxy(args: HttpProxyOptions, enforcer: Enforcer, io: CliIo): Promise<number> {
  let upstream: URL;
  try {
    upstream = new URL(args.url);
  } catch {
    throw new UsageError(`--url is not a URL: ${args.url}`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new UsageError(`--url must be http or https, got ${upstream.protocol}`);
  const proxy = new HttpProxy(upstream, args.headers, enforcer, args.calls, args.timeoutMs);
  const server = http.createServer((req, res) => {
    proxy.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(args.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (err) {
    throw new UsageError(
      `cannot listen on port ${args.port ?? 0}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
  const { port } = server.address() as AddressInfo;
  io.stderr(`warden-gate proxy: serving http://127.0.0.1:${port}/mcp → ${upstream.href}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return GATE_EXIT.pass;
}
