// npm run bench -- startup: what a call of each command costs beside Node's own start-up, and
// what installing the packed gate costs in an empty folder. Ratios are of medians measured side
// by side (interleaved), so a noisy machine slows every column alike.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GATE = path.join(ROOT, 'packages', 'gate');
const RUNS = 15;

function seconds(args: string[], cwd = ROOT): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, stdio: 'ignore' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** Size of a folder in bytes, as files hold them. */
function bytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? bytes(p) : e.isFile() ? fs.statSync(p).size : 0;
  }
  return n;
}

export async function benchStartup(): Promise<string> {
  execFileSync(process.execPath, ['build.js'], { cwd: ROOT, stdio: 'ignore' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-startup-'));
  try {
    // The packed gate, installed into an empty folder as a user would.
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: GATE, stdio: 'ignore' });
    const tarball = fs.readdirSync(dir).find((f) => f.endsWith('.tgz')) as string;
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true}');
    const t0 = process.hrtime.bigint();
    execFileSync('npm', ['install', '--no-audit', '--no-fund', path.join(dir, tarball)], {
      cwd: app,
      stdio: 'ignore',
    });
    const install = Number(process.hrtime.bigint() - t0) / 1e9;
    const size = bytes(path.join(app, 'node_modules'));
    const native = fs
      .readdirSync(path.join(app, 'node_modules'), { recursive: true })
      .some((f) => String(f).endsWith('.node'));
    const bin = path.join(app, 'node_modules', '@warden-mcp', 'gate', 'bin', 'warden-gate.js');
    const tool = { name: 't', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ tools: [tool] }));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ tools: [{ ...tool, description: 'x' }] }));

    const cases: [string, string[]][] = [
      ['node -e 0', ['-e', '0']],
      ['warden-gate --help', [bin, '--help']],
      ['warden-gate diff (one tool)', [bin, 'diff', path.join(dir, 'a.json'), path.join(dir, 'b.json')]],
      ['warden --help', [path.join(ROOT, 'bin', 'warden.js'), '--help']],
      ['warden admin --help', [path.join(ROOT, 'bin', 'warden.js'), 'admin', '--help']],
    ];
    const times = cases.map((): number[] => []);
    for (let i = 0; i < RUNS; i++) cases.forEach(([, args], j) => times[j]?.push(seconds(args, app)));
    const base = median(times[0] as number[]);
    const rows = cases.map(
      ([name], j) =>
        `| ${name} | ${median(times[j] as number[]).toFixed(3)} s | ${(median(times[j] as number[]) / base).toFixed(2)}× |`,
    );
    return [
      `packed gate installed into an empty folder: ${install.toFixed(1)} s, ${(size / 1e6).toFixed(1)} MB, native modules: ${native ? 'yes' : 'none'}`,
      '',
      `| command | median of ${RUNS} | vs node -e 0 |`,
      '|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
