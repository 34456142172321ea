import fs from 'node:fs';
import path from 'node:path';
import {
  canonicalHash,
  definitionHash,
  jsonText,
  parseManifest,
  type Tool,
  type Verdict,
} from '../compat/index.ts';
import { UsageError } from './io.ts';

export const LOCK_VERSION = 1;

export interface LockedTool {
  /** SHA-256 over canonical name + description + inputSchema (the pin a model's view depends on). */
  hash: string;
  /** SHA-256 over the whole canonical definition; approvals bind to it. */
  definitionHash: string;
  definition: Tool;
}

/** One entry of the audit trail: what was accepted, by whom (a rule or a person), when. */
export interface AuditEntry {
  at: string;
  action: 'pin' | 'accept';
  tool?: string;
  change?: 'added' | 'removed' | 'changed';
  verdict?: Verdict;
  oldHash?: string | null;
  newHash?: string | null;
  by: 'auto' | 'hand';
  reason?: string;
}

export interface Lock {
  lockfileVersion: number;
  tools: Record<string, LockedTool>;
  audit: AuditEntry[];
}

export function lockTool(tool: Tool): LockedTool {
  return { hash: canonicalHash(tool), definitionHash: definitionHash(tool), definition: tool };
}

export function buildLock(tools: readonly Tool[], audit: AuditEntry[]): Lock {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    lockfileVersion: LOCK_VERSION,
    tools: Object.fromEntries(sorted.map((t) => [t.name, lockTool(t)])),
    audit,
  };
}

export function lockToTools(lock: Lock): Tool[] {
  return Object.values(lock.tools).map((t) => t.definition);
}

/** Validates a parsed lockfile; a hash that does not match its definition means tampering or damage. */
export function parseLock(doc: unknown, file: string): Lock {
  const d = doc as Partial<Lock> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    d.lockfileVersion !== LOCK_VERSION ||
    !d.tools ||
    typeof d.tools !== 'object'
  ) {
    throw new UsageError(`${file} is not a Warden lockfile (lockfileVersion ${LOCK_VERSION})`);
  }
  for (const [name, entry] of Object.entries(d.tools as Record<string, unknown>)) {
    const definition = isRecord(entry) ? entry.definition : undefined;
    if (!isRecord(definition)) throw new UsageError(`${file}: tool "${name}" has no definition`);
  }
  const tools = Object.values(d.tools).map((t) => (t as LockedTool).definition);
  try {
    parseManifest({ tools });
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
  for (const [name, entry] of Object.entries(d.tools)) {
    if (
      entry.definition.name !== name ||
      entry.definitionHash !== definitionHash(entry.definition) ||
      entry.hash !== canonicalHash(entry.definition)
    ) {
      throw new UsageError(`${file}: the hashes of tool "${name}" do not match its definition`);
    }
  }
  return { lockfileVersion: LOCK_VERSION, tools: d.tools, audit: Array.isArray(d.audit) ? d.audit : [] };
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
