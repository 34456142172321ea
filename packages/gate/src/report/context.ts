// What a report needs beyond the result: the program's name, how `accept` reaches the same
// source, which lockfile the items are anchored to, and the recorded calls replay refers to.
// check and diff build it; every format reads it.
import fs from 'node:fs';
import path from 'node:path';
import { jsonText, type ItemReport, type RecordedCall } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';
import { readCalls } from '../lock/compare.ts';
import { keyLines, lineOf, pinnedPath } from './locate.ts';
import { launchLine } from './launch-fix.ts';

/** How `accept` reaches what check read: the lock, and the source options as given (secrets masked). */
export interface AcceptSource {
  lock: string;
  /** Options naming the source, `--` and its command excluded. */
  options: string[];
  /** A stdio server's command, after `--`. */
  command: string[];
  /** Whether `--server` is among the options already. */
  serverGiven: boolean;
}

export interface RenderContext {
  /** The name commands are printed under: `warden-gate`, or `warden gate`. */
  program: string;
  /** List compatible findings one by one, not as a count. */
  verbose: boolean;
  /** How to accept a change; absent when there is nothing to accept into (a diff of two locks). */
  accept?: AcceptSource;
  /** The lockfile items are anchored to (file and line); absent when the run read none. */
  anchor?: string;
  /** Why results carry no file and line, when they carry none. */
  noAnchor?: string;
  /** The recording replayed (`--calls`), to show a rejected call itself. */
  callsFile?: string;
  /** The client configuration the servers were started from (`--config`): where a launch is fixed. */
  launchFile?: string;
}

/** The context of a library caller: no source to accept from, no lock to point into. */
export const PLAIN: RenderContext = { program: 'warden-gate', verbose: false, noAnchor: 'no lockfile' };

/** A place in a file, as CI annotations and SARIF name it. */
export interface Location {
  file: string;
  line: number;
}

// Per run (per context), never across runs: a lock is rewritten between runs of one process.
const indexes = new WeakMap<RenderContext, ReadonlyMap<string, number>>();

/**
 * Where the anchor lock pins an item (its own line, its surface's when it is new, its server's,
 * or line 1). The lock is read and indexed once per run, on first need.
 */
export function locate(ctx: RenderContext, server: string, item: ItemReport): Location | undefined {
  if (item.kind === 'launch' && ctx.launchFile) {
    const pkg = item.findings.find((f) => typeof f.args.package === 'string')?.args.package as
      string | undefined;
    return { file: relativePath(ctx.launchFile), line: launchLine(ctx.launchFile, server, pkg) };
  }
  if (!ctx.anchor) return undefined;
  let index = indexes.get(ctx);
  if (!index) {
    let text = '';
    try {
      text = fs.readFileSync(ctx.anchor, 'utf8');
    } catch {
      // Read a moment ago to be compared: if it is gone now, line 1 is still the file.
    }
    index = keyLines(text);
    indexes.set(ctx, index);
  }
  return { file: relativePath(ctx.anchor), line: lineOf(index, pinnedPath(server, item)) };
}

/** A path relative to the working directory, with `/` (what GitHub and SARIF readers expect). */
export function relativePath(file: string): string {
  const rel = path.relative(process.cwd(), path.resolve(file));
  return (rel === '' || path.isAbsolute(rel) ? path.resolve(file) : rel).split(path.sep).join('/');
}

const calls = new WeakMap<RenderContext, ReadonlyMap<number, RecordedCall>>();

/** The recorded call on a line of the recording, if the run replayed one. */
export function recordedCall(ctx: RenderContext, line: number): RecordedCall | undefined {
  if (!ctx.callsFile) return undefined;
  let byLine = calls.get(ctx);
  if (!byLine) {
    byLine = new Map(readCalls(ctx.callsFile).map((c) => [c.line, c]));
    calls.set(ctx, byLine);
  }
  return byLine.get(line);
}

/** A rejected call as a person reads it: `line 3: search {"q":1}`, arguments bounded, hidden characters shown. */
export function callText(ctx: RenderContext, rejection: { line: number; tool: string }): string {
  const call = recordedCall(ctx, rejection.line);
  const args = call ? ` ${forPeople(jsonText(call.arguments), 200)}` : '';
  return `line ${rejection.line}: ${forPeople(rejection.tool, 200)}${args}`;
}
