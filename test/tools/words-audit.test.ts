import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonSchema } from '../../src/core/json.ts';
import { nullableUntrusted, untrustedText } from '../../src/tools/schemas.ts';
import { buildRegistry } from '../../src/tools/index.ts';

/**
 * The private-words check (src/tools/private-words.ts) reads each tool's `words`; a tool
 * that sends text out without declaring it, or serves member text it does not declare,
 * would slip past it. Free text is a string argument without a pattern, an enum or a
 * const, that may hold more than an id does (over 64 characters).
 */
const registry = buildRegistry();

function freeText(schema: JsonSchema): boolean {
  if (schema['type'] !== 'string' || 'pattern' in schema || 'enum' in schema || 'const' in schema)
    return false;
  const max = schema['maxLength'];
  return typeof max !== 'number' || max > 64;
}

/** Whether a schema, anywhere inside, holds wrapped member text. */
function carriesMemberText(schema: unknown): boolean {
  if (schema === untrustedText || schema === nullableUntrusted) return true;
  if (Array.isArray(schema)) return schema.some(carriesMemberText);
  if (schema && typeof schema === 'object') return Object.values(schema).some(carriesMemberText);
  return false;
}

describe('every tool declares its outgoing text and the member text it serves', () => {
  for (const { spec } of registry.all()) {
    it(spec.name, () => {
      const props = (spec.inputSchema['properties'] ?? {}) as Record<string, JsonSchema>;
      const free = Object.entries(props)
        .filter(([, s]) => freeText(s))
        .map(([k]) => k);
      if (spec.scope === 'mandate:write') {
        assert.deepEqual(spec.words.sends, [], 'no agent calls it: nothing of it is checked');
      } else if (spec.annotations?.readOnlyHint === false) {
        // Everything free a writing tool takes is read by someone else.
        assert.deepEqual(
          [...spec.words.sends].sort(),
          free.sort(),
          'words.sends lists every free-text argument',
        );
      } else {
        assert.deepEqual(spec.words.sends, [], 'a read-only tool sends nothing out');
      }
      assert.equal(
        spec.words.serves !== 'none',
        carriesMemberText(spec.outputSchema),
        `words.serves is "${spec.words.serves}", and its results ${carriesMemberText(spec.outputSchema) ? 'carry' : 'carry no'} member text`,
      );
    });
  }

  it('the tools that serve what one member wrote to another are declared private', () => {
    const privateTools = registry
      .all()
      .filter((t) => t.spec.words.serves === 'private')
      .map((t) => t.spec.name);
    assert.deepEqual(privateTools.sort(), [
      'answer_question',
      'get_consultation',
      'list_decisions',
      'list_questions',
    ]);
  });
});
