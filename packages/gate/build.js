// Builds what the package ships: one ES-module bundle per entry (shared code split into
// chunks and loaded on demand, so `--help` parses a few kilobytes), and type declarations.
// Dependencies are bundled: the installed package needs nothing but Node.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url).pathname;
rmSync(new URL('dist', import.meta.url), { recursive: true, force: true });
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));

const result = await build({
  absWorkingDir: here,
  entryPoints: {
    bin: 'src/bin.ts',
    index: 'src/index.ts',
    connect: 'src/connect/index.ts',
    cli: 'src/cli/main.ts',
    io: 'src/io.ts',
    text: 'src/text/index.ts',
    'process-group': 'src/process-group.js',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  metafile: true,
  // CommonJS dependencies (Ajv, cross-spawn) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __wardenRequire } from 'node:module'; const require = __wardenRequire(import.meta.url);",
  },
  define: { WARDEN_GATE_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
});

writeFileSync(new URL('dist/THIRD-PARTY-NOTICES.md', import.meta.url), notices(result.metafile));

/**
 * The licences of what the bundle carries: every npm package whose code esbuild put into it,
 * with its version, licence name and licence text, found from the build's own input list.
 */
function notices(metafile) {
  const roots = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) roots.add(m[1]);
  }
  const parts = [
    '# Third-party notices',
    '',
    'The bundle in this folder includes the following packages.',
    '',
  ];
  for (const root of [...roots].sort()) {
    const dir = path.resolve(here, root);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text =
      file && existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8').trim() : '';
    parts.push(
      `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'see text'})`,
      '',
      '```',
      text || '(no licence file shipped)',
      '```',
      '',
    );
  }
  return parts.join('\n');
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: here, stdio: 'inherit' });
