// Every path a comment or a doc cites exists, and every flag it gives a `warden` command is one
// that command's help lists: a reader who follows a citation finds what it names. Cheap and
// static: the files are read, the CLI's help is printed in-process.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bufferIo } from '@warden-mcp/gate/io';
import { main } from '../../src/cli/main.ts';
import { commandNodes } from '../../src/cli/tree.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GATE = 'packages/gate';

/** What is read: the sources' comments, the docs, the READMEs and the contributing guide. */
const SCANNED = ['src', `${GATE}/src`, 'docs', `${GATE}/docs`];
const SCANNED_FILES = ['README.md', `${GATE}/README.md`, 'CONTRIBUTING.md'];
const TEXT = /\.(ts|js|md|css|html|json)$/;

function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(path.join(ROOT, rel)).isDirectory() ? walk(rel) : TEXT.test(name) ? [rel] : [];
  });
}

const files = [...SCANNED.flatMap(walk), ...SCANNED_FILES.filter((f) => existsSync(path.join(ROOT, f)))];

interface Citation {
  file: string;
  line: number;
  cited: string;
}

function citations(pattern: RegExp, keep: (cited: string) => boolean = () => true): Citation[] {
  const out: Citation[] = [];
  for (const file of files) {
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const m of text.matchAll(pattern)) {
          const cited = m[1] as string;
          if (keep(cited)) out.push({ file, line: i + 1, cited });
        }
      });
  }
  return out;
}

const exists = (rel: string) => existsSync(path.join(ROOT, rel));
const where = (c: Citation) => `${c.file}:${c.line} cites ${c.cited}`;
/** Placeholders (`<case>`, `*`, `{base,head}`, `…`) name a family of paths, not one to check. */
const concrete = (cited: string) => !/[<>*{}…]/.test(cited);

describe('what comments and docs cite exists', () => {
  it('every repository path (src/…, test/…, docs/…, bench/…, fuzz/…, bin/…) exists', () => {
    // Not preceded by a path character, so URLs and node_modules/… paths are not read as ours.
    const cited = citations(
      /(?<![\w./@-])((?:packages\/gate\/)?(?:src|test|docs|bench|fuzz|bin)\/[\w./@*<>{}…-]*[\w*>}])/g,
      concrete,
    );
    assert.ok(cited.length > 50, `only ${cited.length} citations found: is the pattern still right?`);
    // A path is read from the citing file's package (the gate's docs say src/compat/… for
    // packages/gate/src/compat/…), else from the root; the root README's tree of the gate
    // package lists its folders under packages/gate/.
    const missing = cited.filter((c) => {
      const own = c.file.startsWith(`${GATE}/`) ? [`${GATE}/${c.cited}`] : [];
      return ![...own, c.cited, `${GATE}/${c.cited}`].some(exists);
    });
    assert.deepEqual(missing.map(where), []);
  });

  it('every file a layer-relative path names (core/registry.ts, cli/main.ts) exists', () => {
    const layers = [...readdirSync(path.join(ROOT, 'src')), ...readdirSync(path.join(ROOT, GATE, 'src'))]
      .filter((name) => !name.includes('.'))
      .join('|');
    const cited = citations(new RegExp(`(?<![\\w./@-])((?:${layers})/[\\w./-]*\\.(?:ts|js|md))\\b`, 'g'));
    assert.ok(cited.length > 5, `only ${cited.length} citations found: is the pattern still right?`);
    const missing = cited.filter(
      (c) =>
        ![path.join(path.dirname(c.file), c.cited), `src/${c.cited}`, `${GATE}/src/${c.cited}`].some(exists),
    );
    assert.deepEqual(missing.map(where), []);
  });

  it('every relative Markdown link resolves', () => {
    const links = citations(/\]\(([^)\s]+)\)/g, (url) => !/^([a-z]+:|#)/.test(url)).filter((c) =>
      c.file.endsWith('.md'),
    );
    const missing = links.filter(
      (c) => !exists(path.join(path.dirname(c.file), c.cited.split('#')[0] ?? '')),
    );
    assert.deepEqual(missing.map(where), []);
  });

  it('docs/README.md lists every page of docs/ and of the gate package’s docs', () => {
    const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
    const linked = new Set(
      [...index.matchAll(/\]\(([^)#\s]+)/g)].map((m) => path.normalize(path.join('docs', m[1] as string))),
    );
    const pages = [...walk('docs'), ...walk(`${GATE}/docs`)].filter(
      (f) => f.endsWith('.md') && f !== 'docs/README.md',
    );
    assert.deepEqual(
      pages.filter((f) => !linked.has(path.normalize(f))),
      [],
    );
  });

  it("every flag given to a warden command is one that command's help lists", async () => {
    let help = '';
    for (const node of commandNodes()) {
      const io = bufferIo();
      await main([...node, '--help'], io);
      help += io.out.join('') + io.err.join('');
    }
    const known = new Set(help.match(/--[a-z][a-z0-9-]*/g));
    // A flag is a citation of ours when it follows a command of the tree (`warden serve --x`,
    // `serve --x`, `warden-gate check --x`) with only words, [options] or <values> between.
    const command =
      /\b(?:warden(?:-gate)?|serve|stdio|doctor|admin|gate|pin|check|diff|accept|proxy)\b((?:\s+(?:[\w.:/@,|=-]+|\[[^\]]*\]|"[^"]*"|'[^']*'|<[^>]*>))*)/g;
    const flags: Citation[] = [];
    for (const c of citations(/(.+)/g)) {
      // In Markdown only code spans are commands; in code, the whole line (comments included).
      const spans = c.file.endsWith('.md')
        ? [...c.cited.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)
        : [c.cited];
      for (const span of spans)
        for (const m of span.matchAll(command))
          for (const flag of (m[1] as string).match(/(?<![\w-])--[a-z][a-z0-9-]+/g) ?? [])
            flags.push({ ...c, cited: flag });
    }
    assert.ok(flags.length > 50, `only ${flags.length} cited flags found: is the pattern still right?`);
    assert.deepEqual(flags.filter((f) => !known.has(f.cited)).map(where), []);
  });
});
