// The one place tools are registered, as tables: what registration refuses, what tools/list
// publishes, and which tools each set of effective scopes sees, with no server started.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry, type ToolSpec } from '../../src/core/registry.ts';
import type { Scope } from '../../src/core/scopes.ts';

const OBJECT = { type: 'object', properties: {}, additionalProperties: false };

function spec(
  name: string,
  scope: Scope | null,
  more: Partial<ToolSpec<null, never>> = {},
): ToolSpec<null, never> {
  return {
    name,
    title: name,
    scope,
    description: `Does ${name}.`,
    inputSchema: OBJECT,
    outputSchema: OBJECT,
    words: { sends: [], serves: 'none' },
    handler: async () => ({ ok: true, data: {} }),
    ...more,
  };
}

function club(): Registry<null> {
  return new Registry<null>()
    .register(spec('club_info', null))
    .register(spec('read_inbox', 'inbox'))
    .register(spec('ask_agent', 'consult'))
    .register(spec('review_candidate', 'vouch'));
}

void describe('registration refuses a tool that could not be served', () => {
  const rows: { case: string; tool: ToolSpec<null, never>; error: RegExp }[] = [
    { case: 'a name that is not snake_case', tool: spec('readInbox', null), error: /must be snake_case/ },
    { case: 'a one-letter name', tool: spec('r', null), error: /must be snake_case/ },
    { case: 'a name starting with a digit', tool: spec('1_tool', null), error: /must be snake_case/ },
    { case: 'a name already taken', tool: spec('club_info', null), error: /already registered/ },
    {
      case: 'a blank description',
      tool: spec('quiet', null, { description: '  \n' }),
      error: /needs a description/,
    },
    {
      case: 'an input schema that is not an object',
      tool: spec('odd', null, { inputSchema: { type: 'string' } }),
      error: /must have type "object" at the top/,
    },
    {
      case: 'an output schema that is not an object',
      tool: spec('odd', null, { outputSchema: { type: 'array' } }),
      error: /must have type "object" at the top/,
    },
    {
      case: 'outgoing text named that is not a string argument',
      tool: spec('odd', null, {
        inputSchema: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false },
        words: { sends: ['n' as never], serves: 'none' },
      }),
      error: /words\.sends names "n", which is not a string argument/,
    },
    {
      case: 'a schema Ajv rejects (strict mode)',
      tool: spec('odd', null, { inputSchema: { type: 'object', propertys: {} } }),
      error: /unknown keyword/,
    },
  ];
  for (const row of rows) {
    void it(row.case, () => assert.throws(() => club().register(row.tool), row.error));
  }
});

void describe('the descriptor tools/list publishes', () => {
  void it('is the spec’s name, title, description and schemas, frozen', () => {
    const [tool] = new Registry<null>().register(spec('club_info', null)).list(new Set());
    assert.deepEqual(tool, {
      name: 'club_info',
      title: 'club_info',
      description: 'Does club_info.',
      inputSchema: OBJECT,
      outputSchema: OBJECT,
    });
    assert.ok(Object.isFrozen(tool) && Object.isFrozen(tool?.inputSchema));
  });
  void it('shows the lighter published output schema when there is one, and annotations when given', () => {
    const published = { type: 'object' };
    const [tool] = new Registry<null>()
      .register(
        spec('club_info', null, { publishedOutputSchema: published, annotations: { readOnlyHint: true } }),
      )
      .list(new Set());
    assert.deepEqual(tool?.outputSchema, published);
    assert.deepEqual(tool?.annotations, { readOnlyHint: true });
  });
  void it('validates results against the full output schema, not the published one', () => {
    const registry = new Registry<null>().register(
      spec('club_info', null, {
        outputSchema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        publishedOutputSchema: { type: 'object' },
      }),
    );
    const tool = registry.find('club_info', new Set());
    assert.equal(tool?.validateOutput({}), false);
    assert.equal(tool?.validateOutput({ n: 1 }), true);
  });
});

void describe('which tools a caller sees', () => {
  const rows: { case: string; effective: Scope[]; sees: string[] }[] = [
    { case: 'no scopes: the public tools only', effective: [], sees: ['club_info'] },
    { case: 'inbox', effective: ['inbox'], sees: ['club_info', 'read_inbox'] },
    {
      case: 'several scopes, in registration order',
      effective: ['vouch', 'inbox', 'consult'],
      sees: ['club_info', 'read_inbox', 'ask_agent', 'review_candidate'],
    },
    { case: 'a scope no tool needs adds nothing', effective: ['profile:write'], sees: ['club_info'] },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const registry = club();
      const effective = new Set(row.effective);
      assert.deepEqual(
        registry.list(effective).map((t) => t.name),
        row.sees,
      );
      for (const { spec: s } of registry.all())
        assert.equal(registry.find(s.name, effective) !== undefined, row.sees.includes(s.name), s.name);
    });
  }
  void it('a hidden tool and one that never existed are both not found', () => {
    const registry = club();
    assert.equal(registry.find('ask_agent', new Set()), undefined);
    assert.equal(registry.find('no_such_tool', new Set()), undefined);
  });
  void it('one view per set of scopes, built once; a registration starts afresh', () => {
    const registry = club();
    const first = registry.list(new Set(['inbox']));
    assert.equal(registry.list(new Set(['inbox'])), first);
    registry.register(spec('answer_question', 'inbox'));
    assert.deepEqual(
      registry.list(new Set(['inbox'])).map((t) => t.name),
      ['club_info', 'read_inbox', 'answer_question'],
    );
  });
});

void describe('the public catalog: which tiers could ever see each tool', () => {
  const rows: { tool: string; scope: Scope | null; tiers: string[] }[] = [
    { tool: 'club_info', scope: null, tiers: ['anonymous', 'candidate', 'member'] },
    { tool: 'read_inbox', scope: 'inbox', tiers: ['candidate', 'member'] },
    { tool: 'ask_agent', scope: 'consult', tiers: ['member'] },
    { tool: 'review_candidate', scope: 'vouch', tiers: ['member'] },
  ];
  void it('follows each tier’s ceiling', () => {
    assert.deepEqual(
      club().catalog(),
      rows.map((r) => ({ name: r.tool, title: r.tool, scope: r.scope, tiers: r.tiers })),
    );
  });
  void it('lists mandate:write under no tier: it is the principal’s, never an agent’s', () => {
    const registry = club().register(spec('set_mandate', 'mandate:write'));
    assert.deepEqual(registry.catalog().at(-1)?.tiers, []);
  });
});
