import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { readDiagnosis, readProtectedResourceMetadata, readTiers, rejectionFrom } from './endpoints.ts';
import type { Evidence } from './evidence.ts';
import { classifyFailure } from '@warden-mcp/gate/connect';
import { timedFetch } from './http-json.ts';
import { isObject } from './json.ts';
import { connectAndList } from './connection.ts';
import type { HttpTarget } from './types.ts';

/**
 * Connects to an HTTP endpoint with the target's URL and headers, lists its tools
 * for real, and reads the catalog, the diagnosis and the protected-resource metadata
 * beside it, all at once.
 */
export async function probeHttp(target: HttpTarget, timeoutMs: number): Promise<Evidence> {
  const [mcp, catalog, diagnose, prm] = await Promise.all([
    listForReal(target, timeoutMs),
    readTiers(target.url, timeoutMs),
    readDiagnosis(target.url, target.headers, timeoutMs),
    readProtectedResourceMetadata(target.url, timeoutMs),
  ]);
  // A 401 on /mcp from Warden carries the reason code too; use it when /diagnose had nothing to say.
  const body = !mcp.ok && mcp.failure.kind === 'unauthorized' ? safeJson(mcp.failure.body) : null;
  const fromMcp =
    diagnose.kind === 'absent' && isObject(body) && typeof body['reason'] === 'string'
      ? ({ kind: 'rejected', rejection: rejectionFrom(body, null) } as const)
      : null;
  return {
    target,
    mcp,
    catalog,
    diagnose: fromMcp ?? diagnose,
    protectedResourceMetadata: prm !== null,
    oauth: prm?.oauth ?? null,
    stderr: '',
    diagnosisSource: diagnose.kind === 'absent' ? null : 'diagnose-endpoint',
  };
}

async function listForReal(target: HttpTarget, timeoutMs: number): Promise<Evidence['mcp']> {
  const options = { requestInit: { headers: target.headers }, fetch: timedFetch(timeoutMs) };
  const transport: Transport =
    target.transport === 'sse'
      ? new SSEClientTransport(new URL(target.url), options)
      : new StreamableHTTPClientTransport(new URL(target.url), options);
  try {
    const conn = await connectAndList(transport, timeoutMs);
    await conn.close();
    return { ok: true, facts: conn.facts };
  } catch (err) {
    return { ok: false, failure: classifyFailure(err) };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
