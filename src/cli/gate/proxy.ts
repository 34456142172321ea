import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { EXIT, UsageError, type CliIo } from '../io.ts';
import { readLock } from './compare.ts';
import { Enforcer, unknownToolError } from './enforcer.ts';
import { lockToTools } from './lockfile.ts';
import { parseGateArgs } from './options.ts';
import { serveHttpProxy } from './proxy-http.ts';

export const PROXY_USAGE = `Usage: warden gate proxy [--lock mcp-lock.json] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] -- COMMAND ARGS...
       warden gate proxy --url URL [--header "K: V"]... [--port N] [--lock mcp-lock.json] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects]

Sits between an agent and an MCP server. With -- COMMAND, the agent speaks on this process's
stdin/stdout to a stdio server. With --url, the proxy serves Streamable HTTP on
http://127.0.0.1:PORT/mcp (--port, default: any free port, printed on stderr) for either
protocol era (2025-11-25 sessions, 2026-07-28 stateless) and forwards to the remote server,
sending --header values upstream; the agent's own credentials and cookies are never passed on.
Every tools/call is recorded to --calls (JSONL, for replay). Tools whose change against the lock
is breaking or unknown are withheld from tools/list and refused if called (the server never sees
the call); compatible changes pass silently. Notes about withheld tools, naming the rule that
made each one break, go to stderr; stdout carries only the protocol (stdio).
`;

interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown; [k: string]: unknown };
  result?: { tools?: unknown; [k: string]: unknown };
}

export async function runProxy(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    'url',
    'header',
    'port',
    'lock',
    'calls',
    'strict-descriptions',
    'strict-open-objects',
  ]);
  if (args.help) {
    io.stdout(PROXY_USAGE);
    return EXIT.ok;
  }
  const command = args.source.command;
  if (args.source.url && command)
    throw new UsageError('proxy takes one upstream: --url URL, or -- COMMAND ARGS...');
  if (!args.source.url && Object.keys(args.source.headers).length > 0)
    throw new UsageError('--header applies to --url only');
  if (!args.source.url && args.port !== undefined) throw new UsageError('--port applies to --url only');
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const lock = readLock(args.lock);
  const enforcer = new Enforcer(lockToTools(lock), args, (line) => io.stderr(`warden gate proxy: ${line}\n`));
  if (args.source.url) return serveHttpProxy(args, enforcer, io);
  if (!command) throw new UsageError('proxy needs an upstream: --url URL, or -- COMMAND ARGS...');
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
        toAgent(unknownToolError(m.id, m.params.name));
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
      toAgent({ ...m, result: enforcer.filterResult(m.result) });
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
