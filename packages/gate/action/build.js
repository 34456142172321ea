// Builds the Action's gate: one ES module with everything in it (action/bundle/warden-gate.mjs)
// and the process-group launcher beside it, committed, so that `uses: …/packages/gate@REF` runs
// with nothing installed. test/action-bundle.test.ts rebuilds it and fails if the committed
// copy differs (`git diff --exit-code`). Run: node packages/gate/action/build.js
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { notices, prebuiltMetaSchemas, prebuiltMetaSource } from '../build-shared.js';

const gate = path.resolve(import.meta.dirname, '..');
const out = path.join(gate, 'action', 'bundle');
const { version } = JSON.parse(readFileSync(path.join(gate, 'package.json'), 'utf8'));

mkdirSync(out, { recursive: true });
const result = await build({
  absWorkingDir: gate,
  plugins: [prebuiltMetaSchemas(gate, await prebuiltMetaSource(gate))],
  stdin: {
    contents: "import { run } from './src/bin.ts';\nawait run();\n",
    resolveDir: gate,
    loader: 'ts',
    sourcefile: 'action-entry.ts',
  },
  metafile: true,
  outfile: path.join(out, 'warden-gate.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  // Minified, names kept: the committed bundle is what runs, not what is read (the sources are);
  // it carries none of its dependencies' comments and is about half the size.
  minify: true,
  keepNames: true,
  banner: {
    js: "// The warden-gate CLI for the Action, built by action/build.js: do not edit.\nimport { createRequire as __wardenRequire } from 'node:module'; const require = __wardenRequire(import.meta.url);",
  },
  define: { WARDEN_GATE_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
});
copyFileSync(path.join(gate, 'src', 'process-group.js'), path.join(out, 'process-group.js'));
writeFileSync(path.join(out, 'THIRD-PARTY-NOTICES.md'), notices(gate, result.metafile));
