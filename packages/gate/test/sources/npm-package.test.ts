import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packageOf } from '../../src/sources/npm-package.ts';

describe('the package an npx-style command runs', () => {
  const cases: [string, string[], ReturnType<typeof packageOf>][] = [
    ['npx', ['-y', '@scope/server@1.2.3', '--port', '1'], { name: '@scope/server', requested: '1.2.3' }],
    ['npx', ['--yes', 'server'], { name: 'server', requested: null }],
    ['npx', ['-p', 'server@^2', 'server-bin', '--flag'], { name: 'server', requested: '^2' }],
    ['npx', ['--package=@s/p@latest', 'p'], { name: '@s/p', requested: 'latest' }],
    ['/usr/local/bin/npx', ['-y', 'srv@next'], { name: 'srv', requested: 'next' }],
    ['npx.cmd', ['srv@1.0.0'], { name: 'srv', requested: '1.0.0' }],
    ['npm', ['exec', '--yes', '--', 'srv@1.0.0'], { name: 'srv', requested: '1.0.0' }],
    ['npm', ['exec', '--registry', 'https://r.example', 'srv'], { name: 'srv', requested: null }],
    ['pnpm', ['dlx', 'srv@~1.2'], { name: 'srv', requested: '~1.2' }],
    ['bunx', ['srv@1.0.0'], { name: 'srv', requested: '1.0.0' }],
    ['yarn', ['dlx', '-p', 'srv@2.0.0', 'srv'], { name: 'srv', requested: '2.0.0' }],
    ['npx', ['github:owner/repo'], undefined],
    ['npx', ['./local-server'], undefined],
    ['npx', ['-y'], undefined],
    ['node', ['server.js'], undefined],
    ['npm', ['run', 'serve'], undefined],
  ];
  for (const [command, args, expected] of cases) {
    it(`${command} ${args.join(' ')}`, () => assert.deepEqual(packageOf(command, args), expected));
  }
});
