import { DIALECTS, keywordsWhere } from '../keywords.ts';

/**
 * Keywords that judge a value on its own, without looking into members or references: what a
 * plain enum/const comparison can decide keyword by keyword. Kept apart so that the finite-set
 * comparison and the whole-node validator can both read it without importing each other.
 *
 * From the keyword table: the assertions the walk decides that every dialect applies alike
 * (the finite-set comparison compiles them alone, under the document's dialect). Left out are
 * `minContains`/`maxContains`, which read the `contains` beside them, and `dependentRequired`,
 * which draft-07 does not apply.
 */
export const DIRECT: readonly string[] = keywordsWhere(
  (k) => k.role === 'assertion' && k.engine === 'decided' && DIALECTS.every((d) => k.dialects.includes(d)),
);
