// npm run bench -- calls --against <ref>: tools/call throughput of this tree beside the
// code of a git ref (main by default), in one run. The ref is checked out into a temporary
// `git worktree` outside the repository (its node_modules linked to this tree's, but for its
// own gate package), and each side serves from its own sources, bench/targets/warden.ts: a member's full token, a fresh SQLite
// file, the rate limits off. Rounds alternate the two servers (which one goes first
// alternates too) under the same autocannon load; the report gives medians and the median
// of the per-round ratios. The worktree is removed at the end, whatever happens.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CALL, load, median, spawnTarget, stopTarget, type Sample, type Target } from './load.ts';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
/** Issue 40's bar: all of it on, tools/call at least this share of the ref's throughput. */
const TARGET = 0.9;

const ROOT = resolve(import.meta.dirname, '..');

/** The ref named after `--against` in argv, or main. */
export function againstRef(argv: readonly string[]): string {
  const i = argv.indexOf('--against');
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : 'main';
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

const SOURCE = ['--conditions=warden-source'];

/**
 * The ref's node_modules: this tree's packages, linked one by one, except the workspace's
 * own gate package, which is the ref's (its exports may differ from this tree's).
 */
function linkModules(tree: string): void {
  const modules = join(tree, 'node_modules');
  mkdirSync(join(modules, '@warden-mcp'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '@warden-mcp') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  symlinkSync(join(tree, 'packages', 'gate'), join(modules, '@warden-mcp', 'gate'), 'dir');
}

const fixed = (n: number, digits: number, width: number) => n.toFixed(digits).padStart(width);

export async function benchCalls(ref: string): Promise<string> {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = mkdtempSync(join(tmpdir(), 'warden-ref-'));
  const tree = join(dir, 'tree');
  git(['worktree', 'add', '--detach', tree, commit]);
  const targets: Target[] = [];
  try {
    const script = join(tree, 'bench', 'targets', 'warden.ts');
    if (!existsSync(script)) throw new Error(`${ref} has no bench/targets/warden.ts to serve from`);
    linkModules(tree);
    // Both sides from their sources, the gate package included: the same loader for both.
    const head = await spawnTarget('this tree', join(ROOT, 'bench', 'targets', 'warden.ts'), [], SOURCE);
    targets.push(head);
    const base = await spawnTarget(`${ref} (${commit.slice(0, 10)})`, script, [], SOURCE);
    targets.push(base);
    const got = new Map<Target, Sample[]>([
      [head, []],
      [base, []],
    ]);
    const ratios: number[] = [];
    for (const t of targets) await load(t, CALL, CONNECTIONS, 1); // warm-up, left out
    for (let round = 0; round < ROUNDS; round++) {
      const here = new Map<Target, Sample>();
      for (const t of round % 2 ? [base, head] : [head, base]) {
        const s = await load(t, CALL, CONNECTIONS, DURATION_S);
        here.set(t, s);
        got.get(t)!.push(s);
      }
      ratios.push(here.get(head)!.rps / here.get(base)!.rps);
    }
    const line = (t: Target) => {
      const s = got.get(t)!;
      return `${t.name.padEnd(24)} ${fixed(median(s.map((x) => x.rps)), 0, 7)}  ${fixed(median(s.map((x) => x.p50)), 1, 6)}  ${fixed(median(s.map((x) => x.p99)), 1, 6)}  ${fixed(median(s.map((x) => x.cpuPerRequest)), 1, 8)}`;
    };
    const ratio = median(ratios);
    return [
      `tools/call (club_info, member token, recorded in Activity), ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per side, alternating; medians`,
      '',
      `${'server'.padEnd(24)}   req/s  p50 ms  p99 ms  CPU µs/req`,
      line(head),
      line(base),
      '',
      `this tree / ${ref}: ${ratio.toFixed(2)}× (median of per-round ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}); target ≥ ${TARGET}× → ${ratio >= TARGET ? 'met' : 'NOT met'}`,
    ].join('\n');
  } finally {
    for (const t of targets) await stopTarget(t);
    try {
      git(['worktree', 'remove', '--force', tree]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      git(['worktree', 'prune']);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchCalls(againstRef(process.argv))) + '\n');
}
