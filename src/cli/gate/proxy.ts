import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { compareManifests, parseManifest, type Tool } from '../../compat/index.ts';
import { EXIT, UsageError, type CliIo } from '../io.ts';
import { readLock } from './compare.ts';
import { lockToTools } from './lockfile.ts';
import { parseGateArgs } from './options.ts';

export const PROXY_USAGE = `Usage: warden gate proxy [--lock mcp-lock.json] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] -- COMMAND ARGS...

Sits between an agent (on this process's stdin/stdout) and a stdio MCP server. Every tools/call
is recorded to --calls (JSONL, for replay). Tools whose change against the lock is breaking or
unknown are withheld from tools/list and refused if called; compatible changes pass silently.
Notes about withheld tools go to stderr; stdout carries only the protocol.
`;

interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown; [k: string]: unknown };
  result?: { tools?: unknown; [k: string]: unknown };
}

/** Decides, per tools/list page, which tools may be shown: the lock is the contract. */
class Enforcer {
  readonly withheld = new Set<string>();
  constructor(
    private readonly locked: Map<string, Tool>,
    private readonly options: { strictDescriptions: boolean; strictOpenObjects: boolean },
    private readonly note: (line: string) => void,
  ) {}

  filter(tools: Tool[]): Tool[] {
    const before = tools.map((t) => this.locked.get(t.name)).filter((t): t is Tool => t !== undefined);
    const result = compareManifests(before, tools, this.options);
    const blocked = new Set(
      result.tools.filter((t) => t.verdict === 'breaking' || t.verdict === 'unknown').map((t) => t.name),
    );
    for (const t of result.tools) {
      if (blocked.has(t.name) && !this.withheld.has(t.name))
        this.note(
          `withholding ${t.name}: ${t.verdict} change against the lock (${t.findings[0]?.rule ?? 'changed'})`,
        );
    }
    for (const name of blocked) this.withheld.add(name);
    for (const t of tools) if (!blocked.has(t.name)) this.withheld.delete(t.name);
    return tools.filter((t) => !blocked.has(t.name));
  }
}

export async function runProxy(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, ['url', 'lock', 'calls', 'strict-descriptions', 'strict-open-objects']);
  if (args.help) {
    io.stdout(PROXY_USAGE);
    return EXIT.ok;
  }
  const command = args.source.command;
  if (!command || args.source.url || args.source.manifest)
    throw new UsageError('proxy needs a stdio server: -- COMMAND ARGS...');
  const lock = readLock(args.lock);
  const enforcer = new Enforcer(new Map(lockToTools(lock).map((t) => [t.name, t])), args, (line) =>
    io.stderr(`warden gate proxy: ${line}\n`),
  );
  const record = args.calls ? fs.createWriteStream(args.calls, { flags: 'a' }) : undefined;
  const [cmd, ...rest] = command as [string, ...string[]];
  const child = spawn(cmd, rest, { stdio: ['pipe', 'pipe', 'inherit'] });
  const listIds = new Set<string>();
  const toAgent = (m: unknown): void => io.stdout(`${JSON.stringify(m)}\n`);

  // The proxy is the agent's transport, so it reads the real stdin (CliIo carries no input stream).
  const fromAgent = readline.createInterface({ input: process.stdin });
  fromAgent.on('line', (line) => {
    let m: Message;
    try {
      m = JSON.parse(line) as Message;
    } catch {
      child.stdin.write(`${line}\n`); // not ours to judge: the server answers malformed input
      return;
    }
    if (m.method === 'tools/list' && m.id !== undefined) listIds.add(JSON.stringify(m.id));
    if (m.method === 'tools/call' && typeof m.params?.name === 'string') {
      record?.write(`${JSON.stringify({ tool: m.params.name, arguments: m.params.arguments ?? {} })}\n`);
      if (enforcer.withheld.has(m.params.name)) {
        toAgent({
          jsonrpc: '2.0',
          id: m.id ?? null,
          error: { code: -32602, message: `Unknown tool: ${m.params.name}` },
        });
        return;
      }
    }
    child.stdin.write(`${line}\n`);
  });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let m: Message;
    try {
      m = JSON.parse(line) as Message;
    } catch {
      io.stdout(`${line}\n`);
      return;
    }
    const key = JSON.stringify(m.id);
    if (m.id !== undefined && listIds.has(key) && m.result && Array.isArray(m.result.tools)) {
      listIds.delete(key);
      let tools: Tool[];
      try {
        tools = parseManifest({ tools: m.result.tools });
      } catch {
        tools = [];
      }
      toAgent({ ...m, result: { ...m.result, tools: enforcer.filter(tools) } });
      return;
    }
    io.stdout(`${line}\n`);
  });
  process.stdin.on('end', () => child.stdin.end());
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? EXIT.error)));
  fromAgent.close();
  process.stdin.destroy();
  record?.end();
  return code;
}
