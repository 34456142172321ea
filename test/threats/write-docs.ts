// `npm run threats`: writes docs/threats.md from the rows of test/threats/rows/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRegistry } from '../../src/tools/index.ts';
import { renderThreats, THREATS_PAGE } from './docs.ts';
import { testTitles, threatRows } from './table.ts';

const tools = buildRegistry()
  .all()
  .map((t) => ({ name: t.spec.name, scope: t.spec.scope }));
const page = renderThreats(await threatRows(), tools, testTitles());
writeFileSync(join(import.meta.dirname, '..', '..', THREATS_PAGE), page);
process.stdout.write(`${THREATS_PAGE} written\n`);
