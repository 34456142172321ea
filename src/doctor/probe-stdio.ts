import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  NO_TOKEN,
  rejection,
  type DiagnosedTool,
  type Diagnosis,
  type DiagnoseAnswer,
  type TierCatalog,
} from './endpoints.ts';
import type { Evidence } from './evidence.ts';
import { classifyFailure } from '@warden-mcp/gate/connect';
import { isObject, strings, wrappedText } from './json.ts';
import { connectAndList } from './connection.ts';
import { isTier, type StdioTarget } from './types.ts';

const STDERR_LIMIT = 16 * 1024;
const WARDEN_REFUSAL = /WARDEN_TOKEN was rejected \(([a-z_]+)\): (.*)/;
/** `warden stdio` without WARDEN_TOKEN (nor --anonymous) refuses to start, and says so first on stderr. */
const WARDEN_NO_TOKEN = /warden stdio: (WARDEN_TOKEN is not set\b[^\n]*)/;

/**
 * Runs the command as the client would (same arguments, same environment on top of
 * the SDK's inherited defaults), lists its tools for real and keeps what it wrote to
 * stderr. There is no HTTP beside stdio, so for Warden the diagnosis comes from two
 * read-only tools the same process serves: club_info (the tier) and, when the
 * caller may see it, get_mandate (every tool and why).
 */
export async function probeStdio(target: StdioTarget, timeoutMs: number): Promise<Evidence> {
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args,
    env: target.env,
    stderr: 'pipe',
    ...(target.cwd ? { cwd: target.cwd } : {}),
  });
  let stderr = '';
  const stream = transport.stderr;
  const ended = new Promise<void>((resolve) => {
    if (!stream) return resolve();
    stream.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    stream.on('end', resolve);
    stream.on('close', resolve);
  });
  const base = { target, catalog: null, protectedResourceMetadata: null } as const;
  try {
    const conn = await connectAndList(transport, timeoutMs);
    try {
      // A tool call that fails leaves the listing standing: the diagnosis is then only absent.
      const { diagnose, source, catalog } = await diagnoseOverStdio(
        conn.client,
        conn.facts.toolNames,
        target,
        timeoutMs,
      ).catch((err: unknown) => ({
        diagnose: {
          kind: 'absent',
          why: `club_info/get_mandate failed: ${classifyFailure(err).message}`,
        } as const,
        source: null,
        catalog: null,
      }));
      return {
        ...base,
        catalog,
        mcp: { ok: true, facts: conn.facts },
        diagnose,
        diagnosisSource: source,
        stderr,
      };
    } finally {
      await conn.close();
    }
  } catch (err) {
    // The process's last words explain a refusal better than "connection closed".
    await Promise.race([ended, new Promise((r) => setTimeout(r, 1000))]);
    const diagnose = refusalIn(stderr);
    return {
      ...base,
      mcp: { ok: false, failure: classifyFailure(err) },
      diagnose: diagnose ?? { kind: 'absent', why: 'the process did not complete the MCP handshake' },
      diagnosisSource: diagnose ? 'stderr' : null,
      stderr,
    };
  }
}

/** Warden's own reason for not starting, from its stderr: a token it rejected, or none given. */
function refusalIn(stderr: string): DiagnoseAnswer | null {
  const rejected = WARDEN_REFUSAL.exec(stderr);
  if (rejected) return { kind: 'rejected', rejection: rejection(rejected[1]!, rejected[2]!.trim()) };
  const missing = WARDEN_NO_TOKEN.exec(stderr);
  if (missing) return { kind: 'rejected', rejection: rejection(NO_TOKEN, missing[1]!.trim()) };
  return null;
}

async function diagnoseOverStdio(
  client: Client,
  toolNames: string[],
  target: StdioTarget,
  timeoutMs: number,
): Promise<{ diagnose: DiagnoseAnswer; source: Evidence['diagnosisSource']; catalog: TierCatalog | null }> {
  const none = { source: null, catalog: null };
  if (client.getServerVersion()?.name !== 'warden' || !toolNames.includes('club_info'))
    return { ...none, diagnose: { kind: 'absent', why: 'not a Warden server' } };
  const info = await callReadOnly(client, 'club_info', timeoutMs);
  const tier = info?.['your_tier'];
  if (!isTier(tier)) return { ...none, diagnose: { kind: 'absent', why: 'club_info named no tier' } };
  const tokenSet = Boolean(target.env['WARDEN_TOKEN']);
  const diagnosis: Diagnosis = {
    headerPresent: tokenSet,
    headerShape: tokenSet ? 'bearer' : 'absent',
    tier,
    visible: null,
    total: null,
    principal: null,
    token: null,
    scopes: null,
    tools: null,
  };
  const fromClubInfo = {
    diagnose: { kind: 'diagnosis', diagnosis },
    source: 'club-info',
    catalog: null,
  } as const;
  if (!toolNames.includes('get_mandate')) return fromClubInfo;
  const mandate = await callReadOnly(client, 'get_mandate', timeoutMs);
  if (!mandate) return fromClubInfo;
  const tools = (Array.isArray(mandate['tools']) ? mandate['tools'] : []).filter(isObject).map((t) => ({
    name: String(t['name']),
    scope: typeof t['scope'] === 'string' ? t['scope'] : null,
    visible: t['visible'] === true,
    missing: strings(t['missing']),
  }));
  const terms = isObject(mandate['mandate']) ? mandate['mandate'] : {};
  const token = isObject(mandate['token']) ? mandate['token'] : null;
  return {
    source: 'get-mandate',
    catalog: catalogFrom(isObject(info?.['tiers']) ? info['tiers'] : {}, tools),
    diagnose: {
      kind: 'diagnosis',
      diagnosis: {
        ...diagnosis,
        visible: tools.filter((t) => t.visible).length,
        total: tools.length,
        principal: { handle: String(mandate['principal']), status: tier },
        token: token
          ? {
              id: String(token['id']),
              label: wrappedText(token['label']),
              expires_at: typeof token['expires_at'] === 'string' ? token['expires_at'] : null,
              // stdio takes a static token only (WARDEN_TOKEN).
              origin: 'static' as const,
              client_id: null,
            }
          : null,
        scopes: {
          token: strings(mandate['token_scopes']),
          mandate: strings(terms['scopes']),
          tier_ceiling: strings(mandate['tier_ceiling']),
          effective: strings(mandate['effective_scopes']),
        },
        tools,
      },
    },
  };
}

/**
 * Without /tiers, the catalog is rebuilt from the server's own answers: each tier's
 * ceiling (club_info) applied to every tool and its scope (get_mandate).
 */
function catalogFrom(ceilings: Record<string, unknown>, tools: DiagnosedTool[]): TierCatalog {
  const tiers: TierCatalog['tiers'] = {};
  for (const [tier, raw] of Object.entries(ceilings)) {
    if (!isTier(tier)) continue;
    const ceiling = strings(raw);
    const names = tools.filter((t) => t.scope === null || ceiling.includes(t.scope)).map((t) => t.name);
    tiers[tier] = { tools: names, ceiling };
  }
  return { total: tools.length, tiers, tools: tools.map((t) => ({ name: t.name, scope: t.scope })) };
}

async function callReadOnly(client: Client, name: string, timeoutMs: number) {
  const result = await client.callTool({ name, arguments: {} }, { timeout: timeoutMs });
  if (result.isError) return null;
  return isObject(result.structuredContent) ? result.structuredContent : null;
}
