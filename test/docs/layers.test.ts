// The layers eslint.config.js declares, checked on code written for the test: an import a
// layer's allow-list does not name is refused with the fix in the message, and a folder no
// layer names is refused whole. The real tree is checked by `npm run check`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

// The config is plain JavaScript (ESLint reads it as it is), so it is loaded untyped.
const { layers } = (await import(new URL('../../eslint.config.js', import.meta.url).href)) as {
  layers: Linter.Config;
};

// Only the layer rules, with a parser that needs no project (the files are not on disk).
const eslint = new ESLint({
  cwd: new URL('../..', import.meta.url).pathname,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, layers],
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.message);
}

void describe('layers: imports are allowed only as listed', () => {
  const rows: { case: string; file: string; code: string; refused: RegExp[] }[] = [
    {
      case: 'a layer imports what its list names',
      file: 'src/tools/probe.ts',
      code: "import { SCOPES } from '../core/scopes.ts';\nimport type { Store } from '../store/contract.ts';\nexport type X = [typeof SCOPES, Store];\n",
      refused: [],
    },
    {
      case: 'a new folder is refused, even when it imports nothing',
      file: 'src/newthing/probe.ts',
      code: 'export const x = 1;\n',
      refused: [/src\/newthing\/probe\.ts is in no layer: add its folder to LAYERS in eslint\.config\.js/],
    },
    {
      case: 'the console reaching into tools/ is told to act through admin/',
      file: 'src/console/probe.ts',
      code: "import type { ToolContext } from '../tools/index.ts';\nexport type X = ToolContext;\n",
      refused: [/console must act through admin\/, not tools\//],
    },
    {
      case: 'core/ importing anything of ours is told it is pure',
      file: 'src/core/probe.ts',
      code: "import type { Store } from '../store/contract.ts';\nexport type X = Store;\n",
      refused: [/src\/core\/ may import nothing of ours, not src\/store\/contract\.ts: core\/ is pure/],
    },
    {
      case: 'an import into a folder no layer names is refused',
      file: 'src/tools/probe.ts',
      code: "import { x } from '../newthing/x.ts';\nexport const y = x;\n",
      refused: [/src\/tools\/ may import only src\/core\/, src\/store\/, src\/untrusted\//],
    },
    {
      case: 'nothing imports cli/, not even by import()',
      file: 'src/server/probe.ts',
      code: "export const load = () => import('../cli/main.ts');\n",
      refused: [/nothing imports cli\//],
    },
    {
      case: 'a re-export is an import too',
      file: 'src/store/probe.ts',
      code: "export { buildRegistry } from '../tools/index.ts';\n",
      refused: [/src\/store\/ may import only src\/core\/, src\/untrusted\//],
    },
    {
      case: 'Warden reaches the gate by package name, not by a path into packages/',
      file: 'src/untrusted/probe.ts',
      code: "import { sanitize } from '../../packages/gate/src/text/index.ts';\nimport { forPeople } from '@warden-mcp/gate/text';\nexport const x = [sanitize, forPeople];\n",
      refused: [/import the gate package by a documented subpath/],
    },
    {
      case: 'the gate imports nothing of Warden',
      file: 'packages/gate/src/compat/probe.ts',
      code: "import { SCOPES } from '../../../../src/core/scopes.ts';\nexport const x = SCOPES;\n",
      refused: [/published on its own and imports nothing of Warden/],
    },
    {
      case: 'the gate’s compat library knows neither its CLI nor connections',
      file: 'packages/gate/src/compat/probe.ts',
      code: "import { main } from '../cli/main.ts';\nimport { readServer } from '../connect/index.ts';\nexport const x = [main, readServer];\n",
      refused: [/compat is the library: it knows neither the CLI nor connections/, /compat is the library/],
    },
    {
      case: 'the compat engine builds its witnesses with generate/',
      file: 'packages/gate/src/compat/engine/probe.ts',
      code: "import { embed } from '../generate/embed.ts';\nimport type { Json } from '../types.ts';\nexport const x: [typeof embed, Json] = [embed, 1];\n",
      refused: [],
    },
    {
      case: 'generate/ knows nothing of the inclusion walk',
      file: 'packages/gate/src/compat/generate/probe.ts',
      code: "import { MAX_DEPTH } from '../engine/context.ts';\nexport const x = MAX_DEPTH;\n",
      refused: [/generate\/ builds values from schemas and knows nothing of the inclusion walk/],
    },
    {
      case: 'the gate’s CLI uses its layers below',
      file: 'packages/gate/src/cli/probe.ts',
      code: "import { VERSION } from '../version.ts';\nimport { RULES } from '../compat/index.ts';\nimport { forPeople } from '../text/index.ts';\nexport const x = [VERSION, RULES, forPeople];\n",
      refused: [],
    },
  ];
  for (const row of rows) {
    void it(row.case, async () => {
      const got = await refusals(row.file, row.code);
      assert.equal(got.length, row.refused.length, got.join('\n'));
      row.refused.forEach((pattern, i) => assert.match(got[i] ?? '', pattern));
    });
  }
});
