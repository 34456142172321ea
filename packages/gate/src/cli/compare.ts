import fs from 'node:fs';
import {
  compareManifests,
  parseCalls,
  parseManifest,
  type ManifestComparison,
  type RecordedCall,
  type Tool,
} from '../compat/index.ts';
import { UsageError } from './io.ts';
import { isLock, lockToTools, parseLock, type Lock } from './lockfile.ts';
import type { GateArgs } from './options.ts';
import { loadTools, readJsonFile } from './sources.ts';

export function readCalls(file: string | undefined): RecordedCall[] {
  if (!file) return [];
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return parseCalls(text);
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

export function readLock(file: string): Lock {
  if (!fs.existsSync(file)) throw new UsageError(`no lockfile at ${file}; run "warden-gate pin" first`);
  return parseLock(readJsonFile(file), file);
}

/** A file holding either a lockfile or a tools/list result, as tools. */
export function readToolsOrLock(file: string): Tool[] {
  const doc = readJsonFile(file);
  if (isLock(doc)) return lockToTools(parseLock(doc, file));
  try {
    return parseManifest(doc);
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

export function runCompare(
  before: readonly Tool[],
  after: readonly Tool[],
  args: GateArgs,
): ManifestComparison {
  return compareManifests(before, after, {
    strictDescriptions: args.strictDescriptions,
    strictOpenObjects: args.strictOpenObjects,
    strictConformance: args.strictConformance,
    calls: readCalls(args.calls),
  });
}

/**
 * The lock against what the source serves now: what check reports and accept blesses.
 * A stray positional is a usage error (a server command belongs after --).
 */
export async function compareLockWithSource(
  args: GateArgs,
): Promise<{ lock: Lock; live: Tool[]; result: ManifestComparison }> {
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const lock = readLock(args.lock);
  const live = await loadTools(args.source);
  return { lock, live, result: runCompare(lockToTools(lock), live, args) };
}
