import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compareSchemas, type Direction, type Schema } from '../../src/compat/index.ts';
import { FIXTURES, independentValidator, readJson } from './helpers.ts';

interface Expected {
  family: string;
  direction: Direction;
  verdict: string;
  strictOpenObjects?: boolean;
  findings: { rule: string; verdict: string; pointer: string }[];
}

const RULES_DIR = path.join(FIXTURES, 'rules');
const key = (f: { rule: string; verdict: string; pointer: string }): string =>
  `${f.rule} ${f.verdict} ${f.pointer}`;

describe('rule fixtures (base.json → head.json, expected.json)', () => {
  for (const name of fs.readdirSync(RULES_DIR).sort()) {
    const dir = path.join(RULES_DIR, name);
    const base = readJson<Schema>(path.join(dir, 'base.json'));
    const head = readJson<Schema>(path.join(dir, 'head.json'));
    const expected = readJson<Expected>(path.join(dir, 'expected.json'));
    it(`${name}: ${expected.family}`, () => {
      const result = compareSchemas(base, head, expected.direction, {
        strictOpenObjects: expected.strictOpenObjects,
      });
      assert.deepEqual(result.findings.map(key).sort(), expected.findings.map(key).sort());
      assert.equal(result.verdict, expected.verdict);
      // Every breaking finding carries a witness the old side accepts and the new side rejects.
      const [keeps, rejects] = expected.direction === 'input' ? [base, head] : [head, base];
      for (const f of result.findings.filter((x) => x.verdict === 'breaking')) {
        assert.ok(f.witness !== undefined, `${f.rule} has a witness`);
        assert.equal(independentValidator(keeps)(f.witness), true, `${f.rule}: witness valid before`);
        assert.equal(independentValidator(rejects)(f.witness), false, `${f.rule}: witness rejected after`);
      }
    });
  }
});
