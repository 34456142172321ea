import { Client, type Transport } from '@modelcontextprotocol/client';
import { VERSION } from '../version.ts';
import { listToolsAsSent } from '@warden-mcp/gate/connect';
import { readSkills, type SkillsSeen } from './skills.ts';

/** What the handshake and tools/list showed: the facts every server gets reported with. */
export interface ServedFacts {
  protocol: string | null;
  serverInfo: { name: string; version: string } | null;
  capabilities: string[];
  toolNames: string[];
  /** The skills served to this caller, verified; null when the server does not declare the extension. */
  skills: SkillsSeen | null;
}

export interface Connection {
  facts: ServedFacts;
  client: Client;
  close(): Promise<void>;
}

/**
 * Connects as an MCP client of either protocol era would (auto negotiation: the
 * 2026-07-28 revision when the server offers it, initialize otherwise), lists every
 * tool, following pagination, and reads the skills the server declares. Throws what
 * the SDK throws; the caller classifies it.
 */
export async function connectAndList(transport: Transport, timeoutMs: number): Promise<Connection> {
  const client = new Client(
    { name: 'warden-doctor', version: VERSION },
    { versionNegotiation: { mode: 'auto', probe: { timeoutMs } } },
  );
  try {
    await client.connect(transport, { timeout: timeoutMs });
    // Read as sent: one tool that is not valid MCP must not hide every other tool's name.
    const toolNames = (await listToolsAsSent(client, timeoutMs))
      .slice(0, 10_000)
      .map((t) => (t as { name?: unknown } | null)?.name)
      .filter((n): n is string => typeof n === 'string');
    const info = client.getServerVersion();
    return {
      client,
      facts: {
        protocol: client.getNegotiatedProtocolVersion() ?? null,
        serverInfo: info ? { name: info.name, version: info.version } : null,
        capabilities: Object.keys(client.getServerCapabilities() ?? {}).sort(),
        toolNames,
        skills: await readSkills(client, timeoutMs),
      },
      close: () => client.close().catch(() => {}),
    };
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
}
