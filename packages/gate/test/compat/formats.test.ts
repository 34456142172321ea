import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { FIXTURES, readJson } from './helpers.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/** The published SARIF 2.1.0 schema (draft-04), read as draft-07: its only draft-04 trait is `id`. */
function sarifValidator(): ReturnType<Ajv['compile']> {
  const schema = readJson<Record<string, unknown>>(path.join(FIXTURES, 'sarif', 'sarif-2.1.0-rtm.5.json'));
  delete schema.id;
  schema.$schema = 'http://json-schema.org/draft-07/schema#';
  // The schema's language pattern is not a valid Unicode-mode regex; it is meant for plain RegExp.
  const ajv = new Ajv({ strict: false, logger: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

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
    { name: 'greet', inputSchema: { type: 'object', not: { minProperties: 3 } } },
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
  it('sarif: valid against the published SARIF 2.1.0 schema, one result per finding', async () => {
    const { code, out } = await diff('sarif');
    assert.equal(code, 1);
    const doc = JSON.parse(out) as { runs: { results: { ruleId: string; level: string }[] }[] };
    const validate = sarifValidator();
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    const results = doc.runs[0]?.results ?? [];
    assert.ok(results.some((r) => r.ruleId === 'type-narrowed' && r.level === 'error'));
    assert.ok(results.some((r) => r.ruleId === 'not-added' && r.level === 'warning'));
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: {} }] }), false, 'the schema does reject');
  });

  it('junit: well-formed XML that parses back to a case per changed tool', async () => {
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

  it('github: one workflow annotation per finding, errors for breaks', async () => {
    const { out } = await diff('github');
    const lines = out.trim().split('\n');
    assert.ok(
      lines.every((l) => /^::(error|warning|notice) title=[^:]*::/.test(l)),
      out,
    );
    assert.ok(lines.some((l) => l.startsWith('::error') && l.includes('search')));
  });

  it('markdown: a summary table for a pull request', async () => {
    const { out } = await diff('markdown');
    assert.match(out, /^### Warden gate: breaking/);
    assert.match(out, /\| `search` \| ❌ breaking \|/);
  });

  it('an unknown format is a usage error (exit 3)', async () => {
    assert.equal((await diff('yaml')).code, 3);
  });
});
