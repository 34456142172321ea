// The JSON Schema of a team's gate configuration, published as schema/config.schema.json (a
// test keeps the two equal). Rule ids are checked against the rule table apart, so a misspelt
// id is answered with the nearest ones rather than a list of every id.

/** The file CLI and Action read by default, in the lockfile's folder. */
export const CONFIG_FILE_NAME = 'warden-gate.config.json';

export const CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/warden-mcp/warden/packages/gate/schema/config.schema.json',
  title: 'warden-gate configuration',
  description:
    'Read by `warden-gate check` and `diff` from warden-gate.config.json in the lockfile’s folder (or --config-file): a level per rule, exceptions with a reason and an expiry date, and the level that fails the run.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    rules: {
      description:
        'A level per rule id: error and warning are shown, info only with --verbose, off drops the finding.',
      type: 'object',
      additionalProperties: { enum: ['error', 'warning', 'info', 'off'] },
    },
    exceptions: {
      description:
        'Findings of a rule (on one server, one tool) lowered to info until a date; past that date the run fails naming the exception.',
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['rule', 'reason', 'expires'],
        properties: {
          server: { type: 'string', minLength: 1 },
          tool: { type: 'string', minLength: 1 },
          rule: { type: 'string', minLength: 1 },
          reason: { type: 'string', minLength: 1, maxLength: 1000 },
          expires: {
            description: 'The last day (UTC) the exception holds, YYYY-MM-DD.',
            type: 'string',
            pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          },
        },
      },
    },
    failOn: {
      description: 'The lowest level that fails the run (default error); --fail-on overrides it.',
      enum: ['error', 'warning', 'info'],
    },
  },
} as const;
