// The gate on real upgrades of published MCP servers, as a user runs it: each release of a pair
// is installed from the npm registry into a temporary folder (--ignore-scripts), the older one
// pinned and the newer one checked against that lock over stdio, every surface at once. Prints
// one row per pair (announced versions, exit code, verdict, items per verdict, and the rules of
// the text-nudge and announced-version checks that fired), then every description and
// instructions text of the releases scanned with the nudge signals. Needs the npm registry;
// nothing it downloads is kept.
//
//   node --conditions=warden-source --import tsx bench/compat-npm-pairs.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../src/cli/main.ts';
import { nudgeHits } from '../src/compat/surfaces/nudges.ts';
import { bufferIo } from '../src/host/io.ts';
import { installRelease } from './npm-release.ts';

const EVERYTHING = '@modelcontextprotocol/server-everything';
const FILESYSTEM = '@modelcontextprotocol/server-filesystem';
const MEMORY = '@modelcontextprotocol/server-memory';
const CONTEXT7 = '@upstash/context7-mcp';
const PLAYWRIGHT = '@playwright/mcp';

/** Each pair: the package, the pinned release and the checked one. */
const PAIRS: [string, string, string][] = [
  [EVERYTHING, '2025.7.1', '2026.1.26'],
  [EVERYTHING, '2025.12.18', '2026.1.26'],
  [EVERYTHING, '2026.1.26', '2026.8.31'],
  [FILESYSTEM, '2025.7.29', '2025.8.21'],
  [FILESYSTEM, '2025.8.21', '2025.11.25'],
  [FILESYSTEM, '2026.1.14', '2026.7.10'],
  [MEMORY, '2025.9.25', '2026.1.26'],
  [CONTEXT7, '4.1.0', '4.1.1'],
  // Where context7's instructions were rewritten to steer the model.
  [CONTEXT7, '2.1.4', '2.1.6'],
  [PLAYWRIGHT, '0.0.82', '0.0.83'],
  [PLAYWRIGHT, '0.0.83', '0.0.86'],
];

/**
 * The rules this measurement is about: text nudges, the announced version, and what an agent
 * forms its calls from (arguments that vanish, required with a default).
 */
const WATCHED =
  /^(?:text-steers-model|server-version-understated|server-version-not-semver|argument-removed|all-arguments-removed|property-required-with-default)$/u;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-npm-pairs-'));
const work = path.join(root, 'work');
fs.mkdirSync(work);

/** The command that starts one installed release over stdio. */
function command(pkg: string, version: string): string[] {
  const dir = path.join(root, `${pkg.replace(/[@/]/gu, '_')}-${version}`);
  const bin = installRelease(dir, pkg, version, 600_000);
  const args =
    pkg === FILESYSTEM ? [work] : pkg === EVERYTHING ? ['stdio'] : pkg === PLAYWRIGHT ? ['--headless'] : [];
  return ['--', 'env', `MEMORY_FILE_PATH=${path.join(work, 'memory.json')}`, process.execPath, bin, ...args];
}

async function gate(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

/** A lock of one release, pinned once. */
const locks = new Map<string, string>();
async function lockOf(pkg: string, version: string): Promise<string> {
  const key = `${pkg}@${version}`;
  const known = locks.get(key);
  if (known) return known;
  const lock = path.join(root, `${pkg.replace(/[@/]/gu, '_')}-${version}.lock.json`);
  const r = await gate('pin', '--timeout', '60', '--lock', lock, ...command(pkg, version));
  if (r.code !== 0) throw new Error(`pin ${key}: ${r.err.trim()}`);
  locks.set(key, lock);
  return lock;
}

interface Report {
  verdict: string;
  servers: { items: { kind: string; verdict: string; findings: { rule: string; message: string }[] }[] }[];
}

/** Every description and the instructions in a lock, as an agent reads them. */
function texts(lock: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'description' || k === 'instructions') && typeof x === 'string') out.push(x);
        else walk(x);
      }
  };
  walk(JSON.parse(fs.readFileSync(lock, 'utf8')).servers);
  return out;
}

try {
  const rows = [
    '| pair | announced | exit | verdict | breaking / unknown / compatible items | nudge, version and argument rules |',
    '|---|---|---|---|---|---|',
  ];
  for (const [pkg, a, b] of PAIRS) {
    const lock = await lockOf(pkg, a);
    await lockOf(pkg, b);
    const r = await gate('check', '--timeout', '60', '--lock', lock, '--json', ...command(pkg, b));
    if (r.code === 3) throw new Error(`check ${pkg}@${b}: ${r.err.trim()}`);
    const report = JSON.parse(r.out) as Report;
    const items = report.servers.flatMap((s) => s.items);
    const n = (v: string): number => items.filter((i) => i.verdict === v).length;
    const watched = items.flatMap((i) =>
      i.findings.filter((f) => WATCHED.test(f.rule)).map((f) => f.message),
    );
    const announced = [a, b].map(
      (v) =>
        (JSON.parse(fs.readFileSync(locks.get(`${pkg}@${v}`) as string, 'utf8')).servers.default.server ?? {})
          .version ?? '—',
    );
    rows.push(
      `| ${pkg} ${a} → ${b} | ${announced.join(' → ')} | ${r.code} | ${report.verdict} | ${n('breaking')} / ${n('unknown')} / ${n('compatible')} | ${watched.join('; ') || '—'} |`,
    );
    process.stderr.write(`compat-npm-pairs: ${pkg} ${a} → ${b}: exit ${r.code}\n`);
  }
  const distinct = new Set([...locks.values()].flatMap(texts));
  const fired = [...distinct].map(nudgeHits).filter((h) => h.length > 0);
  console.log(rows.join('\n'));
  console.log(
    `\nnudge signals over every text of the ${locks.size} releases: ${distinct.size} distinct texts, ${fired.length} raise a signal:`,
  );
  for (const hits of fired) console.log(`- ${hits.map((h) => `${h.signal}: "${h.excerpt}"`).join('; ')}`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
