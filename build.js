// Builds Warden for running: the gate package first (its bundle is what Warden imports at run
// time), then Warden's own sources to dist/ with the console's static files beside them.
// Incremental: a build with nothing changed takes a second or two.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('.', import.meta.url).pathname;
const node = (args, cwd = root) => execFileSync(process.execPath, args, { cwd, stdio: 'inherit' });

node(['build.js'], new URL('packages/gate/', import.meta.url).pathname);
node([createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
cpSync(new URL('src/console/assets', import.meta.url), new URL('dist/console/assets', import.meta.url), {
  recursive: true,
});
// The skill's sources, rendered per reader at run time.
cpSync(new URL('src/skill/club', import.meta.url), new URL('dist/skill/club', import.meta.url), {
  recursive: true,
});
