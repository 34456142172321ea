// `npm run docs:rules`: rewrites the rule tables of docs/reference.md from src/compat/rules.ts.
import fs from 'node:fs';
import path from 'node:path';
import { RULES } from '../../src/compat/rules.ts';
import { REFERENCE_PAGE, referenceNow } from './rules-doc.ts';

const { written, generated } = referenceNow(RULES);
if (generated !== written) fs.writeFileSync(REFERENCE_PAGE, generated);
process.stdout.write(
  `${path.relative(process.cwd(), REFERENCE_PAGE)}: ${generated === written ? 'up to date' : 'written'}\n`,
);
