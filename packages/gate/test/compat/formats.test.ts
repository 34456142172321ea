import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { sarifValidator } from './helpers.ts';

const base = {
  name: 'search',
  description: 'Search',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, limit: { type: 'number' } },
    required: ['q'],
  },
};
const v1 = { tools: [base, { name: 'greet', inputSchema: { type: 'object' } }] };
const v2 = {
  tools: [
    {
      ...base,
      inputSchema: { ...base.inputSchema, properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
    },
    { name: 'greet', inputSchema: { type: 'object', 'x-beta': true } },
    { name: 'added <&> "tool"', inputSchema: { type: 'object' } },
  ],
};

async function diff(format: string): Promise<{ code: number; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-formats-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(v1));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(v2));
    const io = bufferIo();
    const code = await main(
      ['diff', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--format', format],
      io,
    );
    return { code, out: io.out.join('') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('gate output formats for CI', () => {
  it('sarif: valid against the published SARIF 2.1.0 schema, one result per finding, breaking first', async () => {
    const { code, out } = await diff('sarif');
    assert.equal(code, 1);
    const doc = JSON.parse(out) as {
      runs: {
        results: { ruleId: string; level: string; locations: Record<string, unknown>[] }[];
        invocations?: { toolExecutionNotifications: { message: { text: string } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    const results = doc.runs[0]?.results ?? [];
    assert.ok(results.some((r) => r.ruleId === 'type-narrowed' && r.level === 'error'));
    assert.ok(results.some((r) => r.ruleId === 'extension-keyword-changed' && r.level === 'warning'));
    assert.deepEqual(
      [...new Set(results.map((r) => r.level))],
      ['error', 'warning', 'note'],
      'breaking first, then unknown, then compatible',
    );
    // Two tools/list files: no lockfile to point into, and the run says so.
    assert.ok(results.every((r) => !('physicalLocation' in (r.locations[0] ?? {}))));
    assert.match(
      doc.runs[0]?.invocations?.[0]?.toolExecutionNotifications[0]?.message.text ?? '',
      /no physical location: neither OLD nor NEW is a lockfile/,
    );
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: {} }] }), false, 'the schema does reject');
  });

  it('junit: well-formed XML that parses back to a case per changed item', async () => {
    const { out } = await diff('junit');
    assert.equal(XMLValidator.validate(out), true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(out) as {
      testsuites: {
        testsuite: { tests: string; failures: string; errors: string; testcase: Record<string, unknown>[] };
      };
    };
    const suite = doc.testsuites.testsuite;
    assert.equal(suite.tests, '3');
    assert.equal(suite.failures, '1');
    assert.equal(suite.errors, '1');
    const byName = new Map(suite.testcase.map((c) => [c.name as string, c]));
    assert.ok(byName.get('search')?.failure, 'breaking is a failure');
    assert.ok(byName.get('greet')?.error, 'unknown is an error');
    assert.ok(byName.has('added <&> "tool"'), 'names survive escaping');
  });

  it('github: one workflow annotation per changed item, breaking first, then the summary line', async () => {
    const { out } = await diff('github');
    const lines = out.trim().split('\n');
    const summary = lines.pop();
    assert.equal(summary, 'warden gate: 1 breaking, 1 unknown, 1 compatible in 1 server');
    assert.deepEqual(
      lines.map((l) => /^::(error|warning|notice) title=[^:]*::/.exec(l)?.[1]),
      ['error', 'warning', 'notice'],
      out,
    );
    assert.match(lines[0] ?? '', /^::error title=warden gate%3A search breaking \(type-narrowed\)::search: /);
  });

  it('markdown: a summary line and a table for a pull request', async () => {
    const { out } = await diff('markdown');
    assert.match(out, /^### Warden gate: breaking\n\n1 breaking, 1 unknown, 1 compatible in 1 server\n/);
    assert.match(out, /^\| ❌ \| tool <code>search<\/code> \| breaking \| /m);
    assert.match(out, /^\| ✅ \| tool <code>added &lt;&amp;&gt; "tool"<\/code> \| compatible \| /m);
  });

  it('an unknown format is a usage error (exit 3)', async () => {
    assert.equal((await diff('yaml')).code, 3);
  });
});
