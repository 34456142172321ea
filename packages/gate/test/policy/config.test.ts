import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { UsageError } from '../../src/host/io.ts';
import { CONFIG_FILE_NAME, CONFIG_SCHEMA } from '../../src/policy/config-schema.ts';
import { NO_CONFIG, parseGateConfig, readGateConfig } from '../../src/policy/config.ts';
import { nearest } from '../../src/policy/nearest.ts';

const PUBLISHED = new URL('../../schema/config.schema.json', import.meta.url);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-config-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const good = {
  $schema: './node_modules/@warden-mcp/gate/schema/config.schema.json',
  rules: { 'property-required-with-default': 'warning', 'tool-description-changed': 'off' },
  exceptions: [
    {
      server: 'fs',
      tool: 'read_file',
      rule: 'argument-removed',
      reason: 'moved to config',
      expires: '2027-01-31',
    },
  ],
  failOn: 'warning',
};

describe('the gate configuration (policy/config.ts)', () => {
  it('reads levels, exceptions and failOn', () => {
    const config = parseGateConfig(good, 'c.json');
    assert.equal(config.rules['property-required-with-default'], 'warning');
    assert.equal(config.exceptions[0]?.reason, 'moved to config');
    assert.equal(config.failOn, 'warning');
  });

  for (const [name, doc, message] of [
    [
      'an unknown rule names the nearest ids',
      { rules: { 'property-required-default': 'warning' } },
      /rules: no rule "property-required-default"; nearest: property-required-with-default, /,
    ],
    [
      'a level that is none',
      { rules: { 'tool-removed': 'warn' } },
      /rules\.tool-removed must be equal to one of the allowed values \(error, warning, info, off\)/,
    ],
    [
      'an exception without a reason',
      { exceptions: [{ rule: 'tool-removed', expires: '2027-01-01' }] },
      /exceptions\[0\] must have required property 'reason'/,
    ],
    [
      'an exception without an expiry date',
      { exceptions: [{ rule: 'tool-removed', reason: 'r' }] },
      /exceptions\[0\] must have required property 'expires'/,
    ],
    [
      'a date that is no day',
      { exceptions: [{ rule: 'tool-removed', reason: 'r', expires: '2027-02-30' }] },
      /exceptions\[0\]\.expires 2027-02-30 is not a date/,
    ],
    [
      'a date in another form',
      { exceptions: [{ rule: 'tool-removed', reason: 'r', expires: '31/01/2027' }] },
      /exceptions\[0\]\.expires must match pattern/,
    ],
    [
      'an exception of an unknown rule',
      { exceptions: [{ rule: 'tool-gone', reason: 'r', expires: '2027-01-01' }] },
      /exceptions\[0\]\.rule: no rule "tool-gone"; nearest: tool-/,
    ],
    [
      'a key that means nothing',
      { rule: {} },
      /the configuration must NOT have additional properties \(rule\)/,
    ],
    [
      'a failOn that is none',
      { failOn: 'off' },
      /failOn must be equal to one of the allowed values \(error, warning, info\)/,
    ],
    [
      'a disagreement of the gate’s signals',
      { rules: { 'sampling-disagrees': 'off' } },
      /sampling-disagrees means the gate's own signals disagree; it always fails/,
    ],
    ['not an object', [], /the configuration must be object/],
  ] as const) {
    it(`refuses ${name}, in one line`, () => {
      assert.throws(
        () => parseGateConfig(doc, 'c.json'),
        (err: Error) => err instanceof UsageError && message.test(err.message) && !err.message.includes('\n'),
      );
    });
  }

  it('no file beside the lock is no configuration; a file given that is missing is an error', () => {
    assert.equal(readGateConfig(undefined, dir), NO_CONFIG);
    assert.throws(() => readGateConfig(path.join(dir, 'none.json'), dir), /cannot read .*none\.json: ENOENT/);
  });

  it('reads warden-gate.config.json beside the lock by default, and says which file is not JSON', () => {
    const file = path.join(dir, CONFIG_FILE_NAME);
    fs.writeFileSync(file, JSON.stringify({ failOn: 'info' }));
    assert.deepEqual(readGateConfig(undefined, dir), { file, rules: {}, exceptions: [], failOn: 'info' });
    fs.writeFileSync(file, '{"rules": ');
    assert.throws(
      () => readGateConfig(undefined, dir),
      (e: Error) => e.message.startsWith(`${file} is not JSON:`),
    );
    fs.rmSync(file);
  });

  it('the published schema is the one the gate validates with, and it rejects what the gate rejects', () => {
    const published = JSON.parse(fs.readFileSync(PUBLISHED, 'utf8')) as unknown;
    assert.deepEqual(published, JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
    const validate = new Ajv2020({ strict: false }).compile(published as object);
    assert.equal(validate(good), true);
    assert.equal(validate({ exceptions: [{ rule: 'x', expires: '2027-01-01' }] }), false);
  });

  it('nearest: closest names first', () => {
    assert.deepEqual(nearest('tool-remove', ['tool-removed', 'tool-added', 'type-narrowed'], 2), [
      'tool-removed',
      'tool-added',
    ]);
  });
});
