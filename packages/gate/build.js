// Builds what the package ships: one ES-module bundle per entry (shared code split into
// chunks and loaded on demand, so `--help` parses a few kilobytes), and type declarations.
// Dependencies are bundled: the installed package needs nothing but Node.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { notices, prebuiltMetaSchemas, prebuiltMetaSource } from './build-shared.js';

const here = new URL('.', import.meta.url).pathname;
rmSync(new URL('dist', import.meta.url), { recursive: true, force: true });
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));

const result = await build({
  absWorkingDir: here,
  plugins: [prebuiltMetaSchemas(here, await prebuiltMetaSource(here))],
  entryPoints: {
    bin: 'src/bin.ts',
    index: 'src/index.ts',
    connect: 'src/connect/index.ts',
    cli: 'src/cli/main.ts',
    io: 'src/io.ts',
    text: 'src/text/index.ts',
    refusals: 'src/enforce/refusals.ts',
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

writeFileSync(new URL('dist/THIRD-PARTY-NOTICES.md', import.meta.url), notices(here, result.metafile));

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: here, stdio: 'inherit' });
