import assert from 'node:assert/strict';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function bundleFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? bundleFiles(path.join(dir, e.name))
        : e.name.endsWith('.js')
          ? [path.join(dir, e.name)]
          : [],
    );
}

/**
 * What the bundle looks up by name while it runs: esbuild's require() of a module it left out,
 * a require made from a URL, a dynamic import of a bare name. (Ajv's generated code names its
 * runtime helpers in strings, `require("ajv/dist/runtime/…")`, which nothing runs.)
 */
const LOOKUPS = [
  /__require\("([^"]+)"\)/g,
  /createRequire\([^)]*\)\(\s*["']([^"']+)["']\s*\)/g,
  /\bimport\(\s*["']([^"'.][^"']*)["']\s*\)/g,
  /require\.resolve\(\s*["']([^"']+)["']/g,
];

describe('the bundle', () => {
  it('looks up nothing but Node itself at run time: the installed package has no dependencies', () => {
    const files = bundleFiles(DIST);
    assert.ok(files.length > 5, `a built dist/ (${files.length} files)`);
    const outside: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of LOOKUPS)
        for (const m of text.matchAll(pattern))
          if (!isBuiltin(m[1] as string)) outside.push(`${path.relative(DIST, file)}: ${m[0]}`);
    }
    assert.deepEqual(outside, []);
  });
});
