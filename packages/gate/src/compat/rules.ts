import { jsonPreview } from './json-text.ts';

/**
 * What a rule means in one direction. `assumed` is compatible under the open-objects policy
 * (callers send only declared properties) and breaking under strict set semantics.
 */
export type RuleVerdict = 'breaking' | 'compatible' | 'assumed' | 'unknown';

export interface Rule {
  id: string;
  /** Verdict when the change is to an inputSchema (new must accept a superset). */
  input: RuleVerdict;
  /** Verdict when the change is to an outputSchema (new must produce a subset). */
  output: RuleVerdict;
  /** Message template; `{name}` is replaced by the finding's args. */
  message: string;
  /** This rule's findings start at this level instead of the one their verdict gives. */
  level?: 'warning';
}

const N = 'breaking',
  C = 'compatible',
  A = 'assumed',
  U = 'unknown';

/** The rule table. Ids are stable once shipped: add rules, never rename them. */
const TABLE = [
  // type
  { id: 'type-narrowed', input: N, output: C, message: 'type {type} is no longer accepted' },
  { id: 'type-widened', input: C, output: N, message: 'type {type} is now accepted' },
  { id: 'schema-became-false', input: N, output: C, message: 'the schema now rejects every value' },
  {
    id: 'schema-was-false',
    input: C,
    output: N,
    message: 'the schema used to reject every value and now accepts some',
  },
  {
    id: 'change-unreachable',
    input: C,
    output: C,
    message: 'no value the {side} schema accepts reaches this place, so {rule} changes nothing',
  },
  // properties and required
  {
    id: 'property-added-to-open-object',
    input: A,
    output: C,
    message: 'optional property {property} added to an open object',
  },
  {
    id: 'property-added-to-closed-object',
    input: C,
    output: N,
    message: 'optional property {property} added to a closed object',
  },
  {
    id: 'property-removed-from-open-object',
    input: C,
    output: A,
    message: 'property {property} removed; the object stays open',
  },
  {
    id: 'property-removed-from-closed-object',
    input: N,
    output: C,
    message: 'property {property} removed from a closed object',
  },
  { id: 'property-added-required', input: N, output: C, message: 'required property {property} added' },
  { id: 'property-removed-required', input: C, output: N, message: 'required property {property} removed' },
  { id: 'property-became-required', input: N, output: C, message: 'property {property} became required' },
  { id: 'property-became-optional', input: C, output: N, message: 'property {property} became optional' },
  {
    // A zod 4 artifact, often: a property with a default listed as required. A break by set
    // semantics (a call without it is now rejected), apart so a team can set its level.
    id: 'property-required-with-default',
    input: N,
    output: C,
    message: 'property {property} became required, though it declares a default',
  },
  // arguments: a tool's top-level input properties, the names an agent forms its calls from
  {
    id: 'argument-removed',
    input: C,
    output: A,
    message: 'argument {property} is no longer declared; the object stays open, so calls with it pass',
    level: 'warning',
  },
  {
    id: 'all-arguments-removed',
    input: U,
    output: U,
    message:
      'every declared argument ({properties}) is gone from the schema: an agent can no longer form calls from it',
  },
  // additionalProperties and patternProperties
  {
    id: 'additional-properties-closed',
    input: N,
    output: C,
    message: 'additionalProperties closed: undeclared properties are now rejected',
  },
  {
    id: 'additional-properties-opened',
    input: C,
    output: N,
    message: 'additionalProperties opened: undeclared properties are now accepted',
  },
  {
    id: 'pattern-property-added',
    input: A,
    output: C,
    message: 'patternProperties {pattern} added to an open object',
  },
  {
    id: 'pattern-property-added-to-closed-object',
    input: C,
    output: N,
    message: 'patternProperties {pattern} added to a closed object',
  },
  {
    id: 'pattern-property-removed',
    input: C,
    output: A,
    message: 'patternProperties {pattern} removed; the object stays open',
  },
  {
    id: 'pattern-property-removed-from-closed-object',
    input: N,
    output: C,
    message: 'patternProperties {pattern} removed from a closed object',
  },
  {
    id: 'pattern-properties-changed',
    input: U,
    output: U,
    message: 'patternProperties regexes changed; inclusion of regexes is not decided',
  },
  {
    id: 'min-properties-increased',
    input: N,
    output: C,
    message: 'minProperties raised from {old} to {new}',
  },
  {
    id: 'min-properties-decreased',
    input: C,
    output: N,
    message: 'minProperties lowered from {old} to {new}',
  },
  {
    id: 'max-properties-decreased',
    input: N,
    output: C,
    message: 'maxProperties lowered from {old} to {new}',
  },
  {
    id: 'max-properties-increased',
    input: C,
    output: N,
    message: 'maxProperties raised from {old} to {new}',
  },
  // enum and const
  { id: 'enum-value-removed', input: N, output: C, message: 'value {value} is no longer allowed' },
  { id: 'enum-value-added', input: C, output: N, message: 'value {value} is now allowed' },
  { id: 'enum-added', input: N, output: C, message: 'values are now restricted to an enum of {count}' },
  { id: 'enum-removed', input: C, output: N, message: 'the enum restriction was removed' },
  { id: 'const-added', input: N, output: C, message: 'value now fixed to const {value}' },
  { id: 'const-removed', input: C, output: N, message: 'const {value} removed' },
  { id: 'const-changed', input: N, output: N, message: 'const changed from {old} to {new}' },
  // arrays
  {
    id: 'items-closed',
    input: N,
    output: C,
    message: 'array items beyond position {index} are now rejected',
  },
  {
    id: 'items-opened',
    input: C,
    output: N,
    message: 'array items beyond position {index} are now accepted',
  },
  { id: 'min-items-increased', input: N, output: C, message: 'minItems raised from {old} to {new}' },
  { id: 'min-items-decreased', input: C, output: N, message: 'minItems lowered from {old} to {new}' },
  { id: 'max-items-decreased', input: N, output: C, message: 'maxItems lowered from {old} to {new}' },
  { id: 'max-items-increased', input: C, output: N, message: 'maxItems raised from {old} to {new}' },
  { id: 'unique-items-added', input: N, output: C, message: 'array items must now be unique' },
  { id: 'unique-items-removed', input: C, output: N, message: 'array items no longer need to be unique' },
  // strings
  { id: 'min-length-increased', input: N, output: C, message: 'minLength raised from {old} to {new}' },
  { id: 'min-length-decreased', input: C, output: N, message: 'minLength lowered from {old} to {new}' },
  { id: 'max-length-decreased', input: N, output: C, message: 'maxLength lowered from {old} to {new}' },
  { id: 'max-length-increased', input: C, output: N, message: 'maxLength raised from {old} to {new}' },
  { id: 'pattern-added', input: N, output: C, message: 'pattern {new} added' },
  { id: 'pattern-removed', input: C, output: N, message: 'pattern {old} removed' },
  {
    id: 'pattern-implied',
    input: C,
    output: C,
    message: 'pattern changed from {old} to {new}; the regexes are shown nested the compatible way',
  },
  {
    id: 'pattern-changed',
    input: U,
    output: U,
    message: 'pattern changed from {old} to {new}; regex inclusion is not decided',
  },
  {
    id: 'pattern-rejects-value',
    input: N,
    output: N,
    message: 'pattern changed from {old} to {new}, and {value} no longer matches',
  },
  { id: 'format-added', input: N, output: C, message: 'format {new} added (formats are asserted)' },
  { id: 'format-removed', input: C, output: N, message: 'format {old} removed' },
  {
    id: 'format-implied',
    input: C,
    output: C,
    message: 'format {new} added or changed, and every number the old schema accepts already meets it',
  },
  { id: 'format-changed', input: N, output: N, message: 'format changed from {old} to {new}' },
  {
    id: 'format-unknown',
    input: U,
    output: U,
    message: 'format {format} is not known to the validator, so its change is not decided',
  },
  // numbers
  { id: 'minimum-increased', input: N, output: C, message: 'lower bound raised from {old} to {new}' },
  { id: 'minimum-decreased', input: C, output: N, message: 'lower bound lowered from {old} to {new}' },
  { id: 'maximum-decreased', input: N, output: C, message: 'upper bound lowered from {old} to {new}' },
  { id: 'maximum-increased', input: C, output: N, message: 'upper bound raised from {old} to {new}' },
  {
    id: 'multiple-of-narrowed',
    input: N,
    output: C,
    message: 'multipleOf changed from {old} to {new}: fewer numbers pass',
  },
  {
    id: 'multiple-of-widened',
    input: C,
    output: N,
    message: 'multipleOf changed from {old} to {new}: more numbers pass',
  },
  {
    id: 'multiple-of-undecided',
    input: U,
    output: U,
    message:
      'multipleOf changed from {old} to {new}: the validator divides in floating point, and whether every old multiple still passes is not decided',
  },
  // contains
  {
    id: 'contains-added',
    input: N,
    output: C,
    message: 'contains added: arrays must now hold an item that matches it',
  },
  { id: 'contains-removed', input: C, output: N, message: 'contains removed' },
  {
    id: 'contains-narrowed',
    input: N,
    output: C,
    message: 'contains narrowed: fewer arrays hold enough (or few enough) matching items',
  },
  {
    id: 'contains-widened',
    input: C,
    output: N,
    message: 'contains widened: every array that met it before still does',
  },
  {
    id: 'contains-changed',
    input: U,
    output: U,
    message: 'contains or its counts changed, and neither inclusion nor a rejected array was shown',
  },
  {
    id: 'contains-beside-tuple',
    input: U,
    output: U,
    message:
      'a tuple beside contains, read as {dialect}: Ajv in its default configuration (first error only) lets an empty array through here, which it rejects when collecting every error, so the change is not shown compatible under both',
  },
  {
    id: 'inherited-property-name',
    input: U,
    output: U,
    message:
      'a property is named as a member every object inherits (such as constructor or toString): Ajv reads it through the prototype, so an optional one is present on every object for it, and the change is not shown compatible for the validator',
  },
  // composition
  { id: 'any-of-branch-added', input: C, output: N, message: '{keyword} branch {index} added' },
  {
    id: 'any-of-branch-removed',
    input: N,
    output: C,
    message: '{keyword} branch {index} no longer matches any branch',
  },
  {
    id: 'one-of-branches-overlap',
    input: U,
    output: U,
    message: 'oneOf branches may overlap after the change; exclusivity is not decided',
  },
  {
    id: 'not-added',
    input: U,
    output: C,
    message:
      '"not" added in a shape the gate does not decide (it decides not of const, enum, type and required); a recorded call it rejects (--calls) or an accept by hand decides it',
  },
  { id: 'not-removed', input: C, output: U, message: '"not" removed' },
  {
    id: 'not-changed',
    input: U,
    output: U,
    message:
      '"not" changed; the gate decides a "not" added to a schema without one, not one exclusion against another: a recorded call it rejects (--calls) or an accept by hand decides it',
  },
  {
    id: 'not-excludes-value',
    input: N,
    output: C,
    message: 'value {value} is now excluded by "not"',
  },
  {
    id: 'not-no-longer-excludes-value',
    input: C,
    output: N,
    message: 'value {value} is no longer excluded by "not"',
  },
  {
    id: 'conditional-added',
    input: U,
    output: C,
    message:
      'if/then/else added; the old schema was neither shown to fit its then and else nor found holding a value it rejects: a recorded call it rejects (--calls) or an accept by hand decides it',
  },
  {
    id: 'conditional-removed',
    input: C,
    output: U,
    message:
      'if/then/else removed; the new results were neither shown to fit the old then and else nor found holding a value it rejected',
  },
  {
    id: 'conditional-changed',
    input: U,
    output: U,
    message:
      'if/then/else changed; neither shown implied (the old schema, or the old then/else under the same if, fitting the new ones) nor found rejecting an old value: a recorded call it rejects (--calls) or an accept by hand decides it',
  },
  {
    id: 'conditional-implied',
    input: C,
    output: C,
    message: 'if/then/else changed, but its then and else hold for every value the other side accepts',
  },
  {
    id: 'conditional-rejects-value',
    input: N,
    output: C,
    message: 'value {value} is now rejected by if/then/else',
  },
  {
    id: 'conditional-accepts-value',
    input: C,
    output: N,
    message: 'value {value} is no longer rejected by if/then/else',
  },
  {
    id: 'dependent-schema-relaxed',
    input: C,
    output: C,
    message: 'dependentSchemas no longer constrains objects holding {property}',
  },
  {
    id: 'dependent-schema-implied',
    input: C,
    output: C,
    message: 'dependentSchemas for {property} changed, but holds for every value the other side accepts',
  },
  {
    id: 'dependent-schema-rejects-value',
    input: N,
    output: C,
    message: 'an object holding {property}, such as {value}, is now rejected by dependentSchemas',
  },
  {
    id: 'dependent-schema-accepts-value',
    input: C,
    output: N,
    message: 'an object holding {property}, such as {value}, is no longer rejected by dependentSchemas',
  },
  {
    id: 'dependent-schema-on-undeclared-property',
    input: A,
    output: A,
    message:
      'dependentSchemas now constrains objects holding {property}, which the old schema did not declare',
  },
  {
    id: 'dependent-schemas-changed',
    input: U,
    output: U,
    message:
      'dependentSchemas for {property} changed; neither shown implied by the old schema nor found rejecting an old object: a recorded call it rejects (--calls) or an accept by hand decides it',
  },
  // object names and dependencies
  {
    id: 'property-name-rejected',
    input: N,
    output: C,
    message: 'property name {property} is no longer allowed by propertyNames',
  },
  {
    id: 'property-name-allowed',
    input: C,
    output: N,
    message: 'property name {property} is now allowed by propertyNames',
  },
  {
    id: 'property-names-constrained',
    input: A,
    output: C,
    message: 'propertyNames now constrains the names of undeclared properties of an open object',
  },
  {
    id: 'property-names-relaxed',
    input: C,
    output: A,
    message: 'propertyNames no longer constrains the names of undeclared properties',
  },
  {
    id: 'property-names-changed',
    input: U,
    output: U,
    message:
      'propertyNames changed and neither name set is shown to include the other; a closed object (additionalProperties false) would decide it',
  },
  {
    id: 'dependent-required-added',
    input: N,
    output: C,
    message: 'property {property} now requires {requires}',
  },
  {
    id: 'dependent-required-removed',
    input: C,
    output: N,
    message: 'property {property} no longer requires {requires}',
  },
  // references and the unknown
  { id: 'ref-unresolvable', input: U, output: U, message: '$ref {ref} cannot be resolved locally' },
  {
    id: 'ref-cycle',
    input: U,
    output: U,
    message:
      '$ref {ref} leads back to itself without reading any part of the value, so no validator can apply it',
  },
  { id: 'recursion-too-deep', input: U, output: U, message: 'schemas nest deeper than the gate follows' },
  {
    id: 'schema-too-deep',
    input: U,
    output: U,
    message: 'the schema nests deeper than {limit} levels, beyond what the gate reads',
  },
  {
    id: 'schema-too-large',
    input: U,
    output: U,
    message: 'the schema holds more than {limit} values, beyond what the gate reads',
  },
  {
    id: 'schema-too-many-refs',
    input: U,
    output: U,
    message: 'the schema refers to more than {limit} distinct $ref targets, beyond what the gate reads',
  },
  { id: 'schema-unprocessable', input: U, output: U, message: 'the schema could not be compared: {error}' },
  {
    id: 'budget-exhausted',
    input: U,
    output: U,
    message:
      'the comparison ran out of its work budget ({budget} subschema pairs); a larger budget or a smaller change would decide it',
  },
  {
    id: 'unknown-keyword-changed',
    input: U,
    output: U,
    message: 'keyword {keyword} is not analysed by the gate and changed',
  },
  {
    id: 'discriminator-ambiguous',
    input: U,
    output: U,
    message:
      "a validator that applies discriminator (Ajv's option) reads this schema otherwise than one that ignores it: {problem}",
  },
  {
    id: 'ref-in-embedded-resource',
    input: U,
    output: U,
    message:
      '$ref {ref} is inside a subschema with its own $id ({id}), against which the validator resolves it; the gate resolves references against the document root only',
  },
  {
    id: 'unevaluated-sees-change',
    input: U,
    output: U,
    message:
      '{keyword} applies to what the keywords beside it leave unevaluated, and those keywords changed other than by widening: which members they evaluate is not decided',
  },
  {
    id: 'dynamic-reference-unfollowed',
    input: U,
    output: U,
    message:
      '{keyword} {ref} resolves through the dynamic scope (the outermost schema on the way that carries its anchor), and only when the root carries that anchor does the gate know where it leads',
  },
  {
    id: 'extension-keyword-changed',
    input: U,
    output: U,
    message: 'extension keyword {keyword} changed; its meaning is unknown',
  },
  {
    id: 'dialect-unsupported',
    input: U,
    output: U,
    message: 'JSON Schema dialect {dialect} is not supported',
  },
  { id: 'schema-invalid', input: U, output: U, message: 'a schema does not compile: {error}' },
  { id: 'dialect-changed', input: C, output: C, message: '$schema changed from {old} to {new}' },
  {
    id: 'ignored-keyword-changed',
    input: C,
    output: C,
    message: "only keywords that the schema's dialect ignores changed",
  },
  {
    id: 'dialect-ambiguous',
    input: U,
    output: U,
    message:
      'the schema declares no $schema and uses keywords whose meaning depends on it: read as 2020-12 the change is {as2020}, read as draft-07 it is {asDraft07}',
  },
  // annotations: never breaking
  { id: 'description-changed', input: C, output: C, message: 'description changed' },
  { id: 'title-changed', input: C, output: C, message: 'title changed' },
  { id: 'default-changed', input: C, output: C, message: 'default changed from {old} to {new}' },
  { id: 'examples-changed', input: C, output: C, message: 'examples changed' },
  { id: 'annotation-changed', input: C, output: C, message: 'annotation {keyword} changed' },
  { id: 'mcp-header-changed', input: C, output: C, message: 'x-mcp-header changed from {old} to {new}' },
  {
    // Ajv ignores it unless a client turns its option on, and then it accepts what the oneOf does.
    id: 'discriminator-changed',
    input: C,
    output: C,
    message:
      'discriminator changed from {old} to {new}; where a validator applies it, it accepts what the oneOf beside it accepts',
  },
  // cross-checks
  {
    id: 'sampling-disagrees',
    input: U,
    output: U,
    message: 'static rules found the change compatible, but a value sampled from the old schema is rejected',
  },
  {
    id: 'sampled-break',
    input: N,
    output: N,
    message: 'a value sampled from the old schema is rejected by the new one',
  },
  {
    id: 'replay-rejected-call',
    input: N,
    output: N,
    message: 'recorded call on line {line} was valid and is now rejected: {error}',
  },
  {
    id: 'replay-disagrees',
    input: U,
    output: U,
    message:
      'static rules found the tool compatible, but recorded call on line {line} is now rejected: {error}',
  },
  // tools in a manifest
  { id: 'tool-removed', input: N, output: N, message: 'tool removed' },
  { id: 'tool-added', input: C, output: C, message: 'tool added' },
  { id: 'tool-description-changed', input: C, output: C, message: 'tool description changed: {diff}' },
  { id: 'tool-title-changed', input: C, output: C, message: 'tool title changed from {old} to {new}' },
  {
    id: 'tool-annotations-changed',
    input: C,
    output: C,
    message: 'tool annotation {keyword} changed from {old} to {new}',
  },
  { id: 'tool-field-changed', input: C, output: C, message: 'tool field {field} changed' },
  { id: 'tool-unprocessable', input: U, output: U, message: 'the tool could not be compared: {error}' },
  { id: 'surface-unprocessable', input: U, output: U, message: 'the item could not be compared: {error}' },
  // text a model reads: descriptions, instructions, skill files
  {
    id: 'text-hidden-characters-added',
    input: U,
    output: U,
    message: '{count} characters a reader cannot see were added (shown as [U+XXXX])',
  },
  { id: 'text-url-added', input: C, output: C, message: 'a URL was added: {url}' },
  {
    id: 'text-addressed-to-model',
    input: U,
    output: U,
    message: 'text now addresses the model rather than describing: "{phrase}"',
  },
  {
    id: 'text-steers-model',
    input: C,
    output: C,
    level: 'warning',
    message: 'text was rewritten to steer the model ({signal}): {excerpt}',
  },
  // the server itself
  { id: 'server-name-changed', input: U, output: U, message: 'the server now calls itself {new}, not {old}' },
  { id: 'server-version-changed', input: C, output: C, message: 'server version {old} → {new}' },
  {
    id: 'server-version-understated',
    input: C,
    output: C,
    level: 'warning',
    message:
      'the server announces {old} → {new} ({bump}), though what it serves changed in a breaking way: a breaking release needs {needed}',
  },
  {
    id: 'server-version-not-semver',
    input: C,
    output: C,
    message:
      'server version {old} → {new} is not a plain semantic version (MAJOR.MINOR.PATCH) on both sides, so whether it moves as far as the change is not checked',
  },
  { id: 'instructions-changed', input: C, output: C, message: "the server's instructions changed: {diff}" },
  // servers of a client configuration: which run, and how each is started
  { id: 'server-added', input: C, output: C, message: 'server added: everything it serves is new' },
  {
    id: 'server-removed',
    input: N,
    output: N,
    message: 'server removed: nothing it served can be reached any more',
  },
  {
    id: 'launch-changed',
    input: U,
    output: U,
    message: 'the server is started differently, and may be another server: {old} → {new}',
  },
  {
    id: 'launch-package-version-changed',
    input: C,
    output: C,
    message: 'package {package} changed version: {old} → {new}',
  },
  {
    id: 'launch-unpinned',
    input: U,
    output: U,
    message:
      'package {package} is started at {requested}, so what runs can change without the configuration changing; pin it as {pin}',
  },
  {
    id: 'launch-failed',
    input: U,
    output: U,
    message: 'the server could not be started or reached: {error}',
  },
  // prompts
  { id: 'prompt-removed', input: N, output: N, message: 'prompt removed' },
  { id: 'prompt-added', input: C, output: C, message: 'prompt added' },
  { id: 'prompt-description-changed', input: C, output: C, message: 'prompt description changed: {diff}' },
  {
    id: 'prompt-argument-required-added',
    input: N,
    output: N,
    message: 'required argument {argument} added: callers do not send it',
  },
  { id: 'prompt-argument-added', input: C, output: C, message: 'optional argument {argument} added' },
  {
    id: 'prompt-argument-made-required',
    input: N,
    output: N,
    message: 'argument {argument} is now required',
  },
  {
    id: 'prompt-argument-made-optional',
    input: C,
    output: C,
    message: 'argument {argument} is now optional',
  },
  { id: 'prompt-argument-removed', input: N, output: N, message: 'argument {argument} removed' },
  {
    id: 'prompt-argument-description-changed',
    input: C,
    output: C,
    message: 'description of argument {argument} changed: {diff}',
  },
  { id: 'prompt-field-changed', input: C, output: C, message: 'prompt field {field} changed' },
  // resources and resource templates
  { id: 'resource-removed', input: N, output: N, message: 'resource removed' },
  { id: 'resource-added', input: C, output: C, message: 'resource added' },
  { id: 'resource-mime-type-changed', input: N, output: N, message: 'mimeType changed from {old} to {new}' },
  {
    id: 'resource-description-changed',
    input: C,
    output: C,
    message: 'resource description changed: {diff}',
  },
  { id: 'resource-field-changed', input: C, output: C, message: 'resource field {field} changed' },
  { id: 'resource-template-removed', input: N, output: N, message: 'resource template removed' },
  { id: 'resource-template-added', input: C, output: C, message: 'resource template added' },
  {
    id: 'resource-template-changed',
    input: N,
    output: N,
    message: 'URI template changed from {old} to {new}: URIs built from the old one no longer match',
  },
  {
    id: 'resource-template-mime-type-changed',
    input: N,
    output: N,
    message: 'mimeType changed from {old} to {new}',
  },
  {
    id: 'resource-template-description-changed',
    input: C,
    output: C,
    message: 'resource template description changed: {diff}',
  },
  {
    id: 'resource-template-field-changed',
    input: C,
    output: C,
    message: 'resource template field {field} changed',
  },
  // skills (the Skills extension)
  { id: 'skill-removed', input: N, output: N, message: 'skill removed' },
  { id: 'skill-added', input: C, output: C, message: 'skill added' },
  { id: 'skill-description-changed', input: C, output: C, message: 'skill description changed: {diff}' },
  {
    id: 'skill-frontmatter-changed',
    input: C,
    output: C,
    message: 'frontmatter {field} changed from {old} to {new}',
  },
  {
    id: 'skill-allowed-tools-changed',
    input: U,
    output: U,
    message: 'the tools the skill may use changed from {old} to {new}',
  },
  { id: 'skill-file-changed', input: C, output: C, message: 'skill file {file} changed: {diff}' },
  { id: 'skill-file-added', input: C, output: C, message: 'skill file {file} added' },
  { id: 'skill-file-removed', input: N, output: N, message: 'skill file {file} removed' },
  {
    id: 'skill-became-dynamic',
    input: U,
    output: U,
    message: 'the skill is now dynamic: its files have no digests to pin',
  },
  {
    id: 'skill-no-longer-dynamic',
    input: C,
    output: C,
    message: 'the skill now publishes digests for its files',
  },
  // effects: MCP's behaviour hints, read with the defaults a client must assume when absent
  {
    id: 'effect-read-only-dropped',
    input: N,
    output: N,
    message: 'the tool is no longer read-only (readOnlyHint {old} → {new})',
  },
  {
    id: 'effect-became-destructive',
    input: N,
    output: N,
    message: 'the tool may now destroy data (destructiveHint {old} → {new})',
  },
  {
    id: 'effect-no-longer-idempotent',
    input: N,
    output: N,
    message: 'repeating a call may now have further effects (idempotentHint {old} → {new})',
  },
  {
    id: 'effect-opened-world',
    input: N,
    output: N,
    message: 'the tool now reaches outside its own world (openWorldHint {old} → {new})',
  },
  {
    id: 'effect-became-read-only',
    input: C,
    output: C,
    message: 'the tool became read-only (readOnlyHint {old} → {new})',
  },
  {
    id: 'effect-no-longer-destructive',
    input: C,
    output: C,
    message: 'the tool no longer destroys data (destructiveHint {old} → {new})',
  },
  {
    id: 'effect-became-idempotent',
    input: C,
    output: C,
    message: 'repeating a call no longer has further effects (idempotentHint {old} → {new})',
  },
  {
    id: 'effect-closed-world',
    input: C,
    output: C,
    message: 'the tool no longer reaches outside its own world (openWorldHint {old} → {new})',
  },
  {
    id: 'output-schema-added',
    input: C,
    output: C,
    message: 'outputSchema added: results are now described',
  },
  {
    id: 'tool-not-conformant',
    input: C,
    output: C,
    message: 'the tool is not valid MCP: {problem}; it is pinned and compared as served',
  },
] as const satisfies readonly Rule[];

/** A rule id: one of the table's, so a misspelt id does not compile where a finding is emitted. */
export type RuleId = (typeof TABLE)[number]['id'];

export const RULES: readonly Rule[] = TABLE;

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

export function getRule(id: RuleId): Rule {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`unknown compat rule "${id}"`);
  return rule;
}

/** A rule's verdict for one direction, with the open-objects policy applied. */
export function ruleVerdict(
  id: RuleId,
  /** A Direction (types.ts, which reads RuleId from here): the column of the table to read. */
  direction: 'input' | 'output',
  strictOpenObjects: boolean,
): Exclude<RuleVerdict, 'assumed'> {
  const v = getRule(id)[direction];
  if (v === 'assumed') return strictOpenObjects ? 'breaking' : 'compatible';
  return v;
}

function show(value: unknown): string {
  if (value === undefined) return '(none)';
  // A preview: the value may be a whole served schema, of any size and depth.
  const text = jsonPreview(value, 80);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Renders a finding's message from the rule table; the only place rule text is produced. */
export function renderMessage(finding: {
  rule: RuleId;
  args: Readonly<Record<string, unknown>>;
  reason?: string;
}): string {
  const base = getRule(finding.rule).message.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = finding.args[key];
    if ((key === 'diff' || key === 'error' || key === 'problem') && typeof value === 'string') return value;
    // A quoted excerpt is bounded and made readable where it is cut (nudges.ts): shown whole.
    if (key === 'excerpt' && typeof value === 'string') return `"${value}"`;
    // An argument left out means the field was absent (null is a value in its own right).
    if (value === undefined && (key === 'old' || key === 'new')) return 'absent';
    return show(value);
  });
  return finding.reason ? `${base} (${finding.reason})` : base;
}
