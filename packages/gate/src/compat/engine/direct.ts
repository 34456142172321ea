/**
 * Keywords that judge a value on its own, without looking into members or references: what a
 * plain enum/const comparison can decide keyword by keyword. Kept apart so that the finite-set
 * comparison and the whole-node validator can both read it without importing each other.
 */
export const DIRECT = [
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
];
