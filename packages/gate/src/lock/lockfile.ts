import fs from 'node:fs';
import path from 'node:path';
import {
  canonicalHash,
  definitionHash,
  jsonHash,
  jsonText,
  parseManifest,
  parseSnapshot,
  type ItemReport,
  type Json,
  type JsonObject,
  type Launch,
  type ServerSnapshot,
  type SkillEntry,
  type Tool,
  type Verdict,
} from '../compat/index.ts';
import { setMember } from '../compat/own.ts';
import { UsageError } from '../host/io.ts';

/** Version 2 pins every surface of every server; version 1 (tools of one server) is still read. */
export const LOCK_VERSION = 2;
/** The server of a lock made from one source (a URL, a command, a file). */
export const DEFAULT_SERVER = 'default';

export interface LockedTool {
  /** SHA-256 over canonical name + description + inputSchema (the pin a model's view depends on). */
  hash: string;
  /** SHA-256 over the whole canonical definition; approvals bind to it. */
  definitionHash: string;
  definition: Tool;
}

/** A prompt, resource, template or skill: its canonical hash, and the definition as served. */
export interface LockedItem {
  hash: string;
  definition: JsonObject;
}

/** How a configured server is started or reached, pinned with it (see configs.ts). */
export type { Launch };

export interface ServerLock {
  launch?: Launch;
  server?: { name: string; version: string } | null;
  instructions?: string | null;
  tools: Record<string, LockedTool>;
  prompts?: Record<string, LockedItem>;
  resources?: Record<string, LockedItem>;
  resourceTemplates?: Record<string, LockedItem>;
  skills?: Record<string, LockedItem>;
}

/** One entry of the audit trail: what was accepted, by whom (a rule or a person), when. */
export interface AuditEntry {
  at: string;
  action: 'pin' | 'accept';
  server?: string;
  kind?: string;
  tool?: string;
  change?: 'added' | 'removed' | 'changed';
  verdict?: Verdict;
  oldHash?: string | null;
  newHash?: string | null;
  by: 'auto' | 'hand';
  reason?: string;
}

/**
 * One accepted change as the audit trail records it: by hand (a person named it) or
 * automatically (a compatible change), with the reason given, if any. `server` names it in a
 * lock of several.
 */
export function acceptEntry(
  at: string,
  item: ItemReport,
  how: { byHand: boolean; reason?: string; server?: string },
): AuditEntry {
  return {
    at,
    action: 'accept',
    ...(how.server !== undefined ? { server: how.server } : {}),
    ...(item.kind !== 'tool' ? { kind: item.kind } : {}),
    tool: item.name,
    change: item.change === 'unchanged' ? 'changed' : item.change,
    verdict: item.verdict,
    oldHash: item.oldHash,
    newHash: item.newHash,
    by: how.byHand ? 'hand' : 'auto',
    ...(how.reason ? { reason: how.reason } : {}),
  };
}

export interface Lock {
  lockfileVersion: number;
  servers: Record<string, ServerLock>;
  audit: AuditEntry[];
}

type ItemSurface = 'prompts' | 'resources' | 'resourceTemplates' | 'skills';

/** The key each surface's items are pinned under (a prompt's name, a resource's URI…). */
export const ITEM_KEYS: Record<ItemSurface, (item: JsonObject) => string> = {
  prompts: (p) => String(p.name),
  resources: (r) => String(r.uri),
  resourceTemplates: (t) => String(typeof t.name === 'string' ? t.name : t.uriTemplate),
  skills: (s) => String(s.uri),
};
const ITEM_SURFACES = Object.keys(ITEM_KEYS) as ItemSurface[];

export function lockTool(tool: Tool): LockedTool {
  return { hash: canonicalHash(tool), definitionHash: definitionHash(tool), definition: tool };
}

export function lockItem(definition: JsonObject): LockedItem {
  return { hash: jsonHash(definition), definition };
}

function sortedRecord<T>(entries: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) setMember(out, k, v);
  return out;
}

/** A server's snapshot as its pinned form: every item with its hash, sorted by key. */
export function lockServer(snapshot: ServerSnapshot, launch?: Launch): ServerLock {
  const tools = sortedRecord(snapshot.tools.map((t) => [t.name, lockTool(t)]));
  const out: ServerLock = launch ? { launch, tools } : { tools };
  if (snapshot.identity !== undefined) out.server = snapshot.identity;
  if (snapshot.instructions !== undefined) out.instructions = snapshot.instructions;
  for (const surface of ITEM_SURFACES) {
    const items = snapshot[surface] as JsonObject[] | SkillEntry[] | undefined;
    if (items === undefined) continue;
    out[surface] = sortedRecord(
      (items as JsonObject[]).map((i) => [ITEM_KEYS[surface](i), lockItem(i as unknown as JsonObject)]),
    );
  }
  return out;
}

export function buildLock(servers: Record<string, ServerLock>, audit: AuditEntry[]): Lock {
  return { lockfileVersion: LOCK_VERSION, servers: sortedRecord(Object.entries(servers)), audit };
}

/** What a pinned server served, as a snapshot the comparison reads. */
export function lockSnapshot(server: ServerLock): ServerSnapshot {
  const doc: JsonObject = { tools: Object.values(server.tools).map((t) => t.definition) as unknown as Json };
  if (server.server !== undefined) doc.server = server.server;
  if (server.instructions !== undefined) doc.instructions = server.instructions;
  for (const surface of ITEM_SURFACES) {
    const items = server[surface];
    if (items) doc[surface] = Object.values(items).map((i) => i.definition);
  }
  return parseSnapshot(doc);
}

/** The tools of a lock's one server (the proxy and older callers pin one server). */
export function lockToTools(lock: Lock, server?: string): Tool[] {
  return Object.values(pickServer(lock, server).tools).map((t) => t.definition);
}

/** The server a single-source command works on: the one named, or the lock's only one. */
export function pickServer(lock: Lock, name?: string): ServerLock {
  const names = Object.keys(lock.servers);
  const chosen = name ?? (names.length === 1 ? names[0] : undefined);
  if (chosen === undefined)
    throw new UsageError(
      `the lock pins ${names.length} servers (${names.join(', ')}); name one with --server`,
    );
  const server = Object.hasOwn(lock.servers, chosen) ? lock.servers[chosen] : undefined;
  if (!server)
    throw new UsageError(`the lock pins no server "${chosen}" (it has ${names.join(', ') || 'none'})`);
  return server;
}

/**
 * Validates a parsed lockfile of either version. A hash that does not match its definition
 * means tampering or damage, and stops the command.
 */
export function parseLock(doc: unknown, file: string): Lock {
  const d = doc as (Partial<Lock> & { tools?: unknown }) | null;
  const version = d && typeof d === 'object' ? d.lockfileVersion : undefined;
  if (version === 1 && isRecord(d?.tools)) {
    const server = { tools: d.tools as Record<string, LockedTool> };
    checkServer(server, file, '');
    return { lockfileVersion: LOCK_VERSION, servers: { [DEFAULT_SERVER]: server }, audit: auditOf(d) };
  }
  if (version !== LOCK_VERSION || !isRecord(d?.servers))
    throw new UsageError(`${file} is not a Warden lockfile (lockfileVersion 1 or ${LOCK_VERSION})`);
  for (const [name, server] of Object.entries(d.servers)) {
    if (!isRecord(server) || !isRecord(server.tools))
      throw new UsageError(`${file}: server "${name}" has no tools`);
    checkServer(server as unknown as ServerLock, file, `server "${name}": `);
  }
  return {
    lockfileVersion: LOCK_VERSION,
    servers: d.servers as Record<string, ServerLock>,
    audit: auditOf(d),
  };
}

function checkServer(server: ServerLock, file: string, where: string): void {
  for (const [name, entry] of Object.entries(server.tools as Record<string, unknown>)) {
    if (!isRecord(entry) || !isRecord(entry.definition))
      throw new UsageError(`${file}: ${where}tool "${name}" has no definition`);
  }
  try {
    parseManifest({ tools: Object.values(server.tools).map((t) => t.definition) });
    lockSnapshot(server);
  } catch (err) {
    throw new UsageError(`${file}: ${where}${(err as Error).message}`);
  }
  for (const [name, entry] of Object.entries(server.tools)) {
    if (
      entry.definition.name !== name ||
      entry.definitionHash !== definitionHash(entry.definition) ||
      entry.hash !== canonicalHash(entry.definition)
    )
      throw new UsageError(`${file}: ${where}the hashes of tool "${name}" do not match its definition`);
  }
  for (const surface of ITEM_SURFACES) {
    for (const [key, entry] of Object.entries(server[surface] ?? {})) {
      if (!isRecord(entry) || !isRecord(entry.definition) || entry.hash !== jsonHash(entry.definition))
        throw new UsageError(
          `${file}: ${where}the hash of ${surface} "${key}" does not match its definition`,
        );
    }
  }
}

function auditOf(d: { audit?: unknown } | null): AuditEntry[] {
  return Array.isArray(d?.audit) ? (d.audit as AuditEntry[]) : [];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isLock(doc: unknown): boolean {
  return !!doc && typeof doc === 'object' && 'lockfileVersion' in doc;
}

/**
 * Writes through a temporary file and a rename, so a crash never leaves a half-written lock.
 * The text is JSON.stringify's with two spaces, written without recursion (a served schema may
 * nest 10,000 deep), and compact below 64 levels so such a lock grows linearly with depth.
 */
export function writeLock(file: string, lock: Lock): void {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${jsonText(lock, 2)}\n`, { mode: 0o644 });
  fs.renameSync(tmp, file);
}
