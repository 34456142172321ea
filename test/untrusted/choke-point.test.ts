// The wrapper is the only way from member text to a tool result only if nobody can
// reach around it. These checks read the source tree: outside src/untrusted, code
// imports the module's index and nothing deeper (so the raw-text accessor and the
// fixed-boundary constructor stay private), and only the store seals text.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const outside = sourceFiles(join(root, 'src'))
  .map((path) => ({ file: relative(root, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }))
  .filter(({ file }) => !file.startsWith('src/untrusted/'));

void test('outside code imports only the untrusted index, never its internals', () => {
  const deep = /(?:from|import)\s*\(?\s*['"][^'"]*\/untrusted\/(?!index\.ts['"])[^'"]*['"]/;
  const offenders = outside.filter(({ text }) => deep.test(text)).map(({ file }) => file);
  assert.deepEqual(offenders, []);
});

void test('the internal accessors are not part of the public index', async () => {
  const index = await import('../../src/untrusted/index.ts');
  for (const name of ['openForWrapping', 'createWrapper', 'escapeBoundary', 'MemberText']) {
    assert.ok(!(name in index), name);
  }
});

void test('only the store seals member text', () => {
  const offenders = outside
    .filter(({ file, text }) => !file.startsWith('src/store/') && /\bmemberText\s*\(/.test(text))
    .map(({ file }) => file);
  assert.deepEqual(offenders, []);
});

void test('forHumans, which yields a plain string, is used only on human screens', () => {
  // A plain string is assignable to a tool result, so this is the one way around the
  // type-level guarantee; it must stay out of every layer that builds results.
  const humanScreens = ['src/cli/', 'src/console/'];
  const offenders = outside
    .filter(({ file, text }) => !humanScreens.some((d) => file.startsWith(d)) && /\bforHumans\b/.test(text))
    .map(({ file }) => file);
  assert.deepEqual(offenders, []);
});
