import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { JSON_REPORT_VERSION } from '../../src/report/json.ts';
import { diff } from './pair.ts';
import { gateOnSchema, readReportSchema, SCHEMA_LOCK } from './report-schema.ts';

function validator(schema: Record<string, unknown> = readReportSchema()) {
  return new Ajv2020({ strict: false, allErrors: true }).compile(schema);
}

describe('the JSON report (report/json.ts)', () => {
  it('carries its version first and is valid against the published schema', async () => {
    const { code, out } = await diff('json');
    assert.equal(code, 1);
    const doc = JSON.parse(out) as Record<string, unknown>;
    assert.equal(Object.keys(doc)[0], 'version');
    assert.equal(doc.version, JSON_REPORT_VERSION);
    const validate = validator();
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    // The schema does reject: the shape before the version field (a top-level `tools`) fails it.
    assert.equal(validate({ verdict: 'breaking', tools: [] }), false);
    assert.equal(validate({ ...doc, version: JSON_REPORT_VERSION + 1 }), false);
  });

  it('the package publishes the schema under ./report.schema.json', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
      files: string[];
    };
    assert.equal(pkg.exports['./report.schema.json'], './schema/report.schema.json');
    assert.ok(pkg.files.includes('schema'));
    const schema = readReportSchema() as { properties: { version: { const: number } } };
    assert.equal(schema.properties.version.const, JSON_REPORT_VERSION);
  });
});

describe('a change of the report schema, judged by the gate itself', () => {
  it('the published schema passes the check against the one pinned for this version', async () => {
    const lock = JSON.parse(fs.readFileSync(SCHEMA_LOCK, 'utf8')) as {
      servers: {
        default: {
          tools: Record<
            string,
            { definition: { outputSchema: { properties: { version: { const: number } } } } }
          >;
        };
      };
    };
    const pinned = lock.servers.default.tools.warden_gate_report?.definition.outputSchema;
    assert.equal(
      pinned?.properties?.version?.const,
      JSON_REPORT_VERSION,
      'the pinned schema is of another version: pin it anew (see test/report/report-schema.ts)',
    );
    const { code, out, err } = await gateOnSchema('check');
    assert.equal(
      code,
      0,
      `the report schema changed in a way its readers would trip on: raise JSON_REPORT_VERSION ` +
        `(report/json.ts and the schema's version const), say so in docs/reference.md, and pin ` +
        `it anew (test/report/report-schema.ts)\n${out}${err}`,
    );
  });

  it('a field the reader relies on becoming optional is breaking; a new optional field is not', async () => {
    const schema = readReportSchema() as { required: string[]; properties: Record<string, unknown> };
    const dropped = { ...schema, required: schema.required.filter((r) => r !== 'summary') };
    const broke = await gateOnSchema('check', dropped);
    assert.equal(broke.code, 1, broke.out + broke.err);
    assert.match(broke.out, /warden_gate_report/);
    const added = { ...schema, properties: { ...schema.properties, groups: { type: 'array' } } };
    const fine = await gateOnSchema('check', added);
    assert.equal(fine.code, 0, fine.out + fine.err);
  });
});
