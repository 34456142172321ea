import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prebuiltMetaSource } from '../../src/compat/meta-prebuild.ts';
import type { MetaValidator } from '../../src/compat/meta-validators.ts';
import { META_SCHEMAS, metaKey, metaSchemaAjv, type Dialect } from '../../src/compat/validator.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-meta-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The module the package's build puts in place of meta-validators.ts, loaded as the bundle loads it. */
async function prebuilt(): Promise<Readonly<Record<string, MetaValidator>>> {
  const file = path.join(dir, 'meta.mjs');
  // Its require() calls (Ajv's runtime helpers) resolve from this package, as the bundle's do.
  const banner = `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(pathToFileURL(HERE).href + '/')});\n`;
  fs.writeFileSync(file, banner + prebuiltMetaSource());
  return ((await import(pathToFileURL(file).href)) as { PREBUILT_META: Record<string, MetaValidator> })
    .PREBUILT_META;
}

const SCHEMAS: unknown[] = [
  true,
  {},
  { type: 'string', minLength: 2 },
  { type: 'string', minLength: -1 },
  { type: 'object', properties: { a: { type: 'nope' } } },
  { type: 'object', required: 'a' },
  { type: ['string', 'string'] },
  { enum: [] },
  { items: [{ type: 'string' }], additionalItems: false },
  { prefixItems: [{ type: 'string' }], items: false },
  { $defs: { a: { type: 'integer', minimum: 'x' } }, $ref: '#/$defs/a' },
  { dependentRequired: { a: ['b', 'b'] } },
  { dependencies: { a: 3 } },
  { anyOf: [] },
  { format: 12 },
  { pattern: '(' },
];

describe('meta-schema validators built ahead of time', () => {
  it('answer as Ajv does when it builds them, with the same error text, in every dialect', async () => {
    const table = await prebuilt();
    for (const dialect of Object.keys(META_SCHEMAS) as Dialect[])
      for (const id of META_SCHEMAS[dialect]) {
        const validate = table[metaKey(dialect, id)];
        assert.ok(validate, `${dialect} ${id} is prebuilt`);
        const ajv = metaSchemaAjv(dialect);
        let invalid = 0;
        for (const schema of SCHEMAS) {
          const withId = typeof schema === 'object' ? { $schema: `${id}#`, ...schema } : schema;
          const expected = ajv.validateSchema(withId as object) ? 'valid' : ajv.errorsText(ajv.errors);
          const got: string = validate(withId) ? 'valid' : ajv.errorsText(validate.errors);
          assert.equal(got, expected, `${dialect} ${id}: ${JSON.stringify(schema)}`);
          if (expected !== 'valid') invalid++;
        }
        // The table holds schemas each meta-schema refuses, not only ones it accepts.
        assert.ok(invalid >= 4, `${dialect} ${id}: ${invalid} refused`);
      }
  });

  it('are keyed as the gate looks them up: a trailing "#" or "#/" names the same meta-schema', () => {
    assert.equal(
      metaKey('draft-07', 'http://json-schema.org/draft-07/schema#'),
      metaKey('draft-07', 'http://json-schema.org/draft-07/schema'),
    );
    assert.equal(
      metaKey('2020-12', 'https://json-schema.org/draft/2020-12/schema#/'),
      '2020-12 https://json-schema.org/draft/2020-12/schema',
    );
  });
});
