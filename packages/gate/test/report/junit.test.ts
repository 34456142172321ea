import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { diff } from './pair.ts';

describe('the JUnit report (report/junit.ts)', () => {
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
});
