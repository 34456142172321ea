// One lint command guards the architecture: imports point one way, and
// server code never writes to stdout (it is the stdio transport).
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** The gate's library folders: what its CLI and its package entry may both build on. */
const GATE_LIBRARY = [
  'gate-text',
  'gate-compat',
  'gate-connect',
  'gate-host',
  'gate-sources',
  'gate-lock',
  'gate-report',
  'gate-policy',
  'gate-enforce',
  'gate-proxy',
  'gate-version',
];

/**
 * The layers of src/ and of the gate package, each with the only layers it may import: an
 * allow-list. An import that is not listed is refused, and so is every file of a folder that has
 * no entry here, so a new folder starts by saying what it may import. `fix` is what a refused
 * import is told; FIXES below names the fix for the refusals most likely to be tried.
 * There are no exceptions: a rule needed on both sides of a line moves to the lower side.
 * `gate` lists the subpaths of @warden-mcp/gate a Warden layer may import (default: none), each
 * one the package documents in its `exports`.
 */

const LAYERS = {
  // Warden: core ← tools ← server and console, with the store and untrusted text beside.
  untrusted: {
    may: [],
    gate: ['text'],
    fix: 'it turns member text into something a result accepts, and knows nothing of ours',
  },
  core: {
    may: [],
    gate: ['refusals'],
    fix: 'core/ is pure: take what it needs as arguments, or move the rule into core/',
  },
  store: {
    may: ['core', 'untrusted'],
    fix: 'the store talks SQL only: return records and let the caller decide',
  },
  tools: { may: ['core', 'store', 'untrusted'], fix: 'a tool reaches the rest through its ToolContext' },
  skill: {
    may: ['core'],
    fix: 'the skill is text rendered for the tools a reader sees: it is given their names, and serving it is the server’s',
  },
  admin: {
    may: ['core', 'store', 'tools', 'untrusted'],
    fix: 'admin/ is what the CLI and the console act through, so it cannot import them',
  },
  oauth: { may: ['core', 'store', 'admin'], fix: 'OAuth issues and revokes grants through admin/' },
  server: {
    may: ['core', 'store', 'tools', 'skill', 'untrusted'],
    fix: 'the MCP edge serves tools and the skill; shared pieces belong in core/ or the gate package',
  },
  console: {
    may: ['core', 'store', 'admin', 'oauth', 'untrusted'],
    gate: ['io', 'text'],
    fix: 'the console acts through admin/',
  },
  doctor: {
    may: ['version'],
    gate: ['connect'],
    fix: 'the doctor checks a server from outside, as a client would',
  },
  cli: {
    may: [
      'core',
      'store',
      'untrusted',
      'tools',
      'skill',
      'admin',
      'oauth',
      'server',
      'console',
      'doctor',
      'version',
    ],
    gate: ['.', 'cli', 'io'],
    fix: 'the CLI is the thin shell over every layer',
  },
  version: { may: [], fix: 'it only reads package.json' },

  // The gate package (published on its own): a library first, its CLI last. text ← compat;
  // host (io, exit codes) and connect stand alone; sources ← lock ← report; compat ← enforce ←
  // proxy; cli parses arguments into calls of them all; the entry imports nothing of cli/.
  // Inside compat, generate/ (values a schema accepts) ← engine/ (the inclusion walk, which
  // builds its witnesses with generate/); both read the shared modules at compat/'s top.
  'gate-text': { may: [], fix: 'text is the gate’s lowest layer' },
  'gate-compat-generate': {
    may: ['gate-compat'],
    fix: 'generate/ builds values from schemas and knows nothing of the inclusion walk: move a shared piece to compat/',
  },
  'gate-compat-engine': {
    may: ['gate-compat', 'gate-compat-generate'],
    fix: 'the engine decides inclusion; compat/ runs it and reports',
  },
  'gate-compat': {
    may: ['gate-text', 'gate-compat-engine', 'gate-compat-generate'],
    fix: 'compat is the library: it knows neither the CLI nor connections',
  },
  'gate-connect': { may: [], fix: 'connect reads servers and knows no judging or rendering' },
  'gate-host': {
    may: [],
    fix: 'host/ is the io, exit codes and errors every layer shares; it imports nothing',
  },
  'gate-sources': {
    may: ['gate-text', 'gate-compat', 'gate-connect', 'gate-host', 'gate-version'],
    fix: 'sources/ reads what a server serves (a file, a URL, a command, a configuration)',
  },
  'gate-lock': {
    may: ['gate-compat', 'gate-connect', 'gate-host', 'gate-sources'],
    fix: 'lock/ reads, writes and compares lockfiles; rendering is report/',
  },
  'gate-report': {
    may: ['gate-text', 'gate-compat', 'gate-host', 'gate-lock', 'gate-version'],
    fix: 'report/ renders a result (one file per format) and parses no arguments',
  },
  'gate-policy': {
    may: ['gate-text', 'gate-compat', 'gate-connect', 'gate-host', 'gate-lock'],
    fix: 'policy/ reads a team’s configuration and sets levels on a decided result; rendering is report/',
  },
  'gate-enforce': {
    may: ['gate-compat', 'gate-lock'],
    fix: 'enforce/ judges messages against a lock, with no transport or rendering',
  },
  'gate-proxy': {
    may: ['gate-compat', 'gate-connect', 'gate-host', 'gate-lock', 'gate-enforce'],
    fix: 'proxy/ carries messages through enforce/ and parses no arguments',
  },
  'gate-cli': {
    may: GATE_LIBRARY,
    fix: 'the gate CLI is the shell over the library',
  },
  'gate-entry': {
    may: GATE_LIBRARY,
    fix: 'the package entry is the library’s face and re-exports no CLI: move the piece out of cli/',
  },
  'gate-bin': { may: ['gate-host', 'gate-cli'], fix: 'the executable only starts the CLI' },
  'gate-version': { may: [], fix: 'it only reads package.json' },
  'gate-launcher': { may: [], fix: 'the process-group launcher is started by path and stands alone' },
};

/** Where each layer lives: a folder (every file under it), or named files. */
const PLACES = {
  version: { files: ['src/version.ts'] },
  'gate-text': { folder: 'packages/gate/src/text' },
  'gate-compat-generate': { folder: 'packages/gate/src/compat/generate' },
  'gate-compat-engine': { folder: 'packages/gate/src/compat/engine' },
  'gate-compat': { folder: 'packages/gate/src/compat' },
  'gate-connect': { folder: 'packages/gate/src/connect' },
  'gate-host': { folder: 'packages/gate/src/host' },
  'gate-sources': { folder: 'packages/gate/src/sources' },
  'gate-lock': { folder: 'packages/gate/src/lock' },
  'gate-report': { folder: 'packages/gate/src/report' },
  'gate-policy': { folder: 'packages/gate/src/policy' },
  'gate-enforce': { folder: 'packages/gate/src/enforce' },
  'gate-proxy': { folder: 'packages/gate/src/proxy' },
  'gate-cli': { folder: 'packages/gate/src/cli' },
  'gate-entry': { files: ['packages/gate/src/index.ts', 'packages/gate/src/io.ts'] },
  'gate-bin': { files: ['packages/gate/src/bin.ts'] },
  'gate-version': { files: ['packages/gate/src/version.ts'] },
  'gate-launcher': { files: ['packages/gate/src/process-group.js'] },
};
const placeOf = (layer) => PLACES[layer] ?? { folder: `src/${layer}` };
const shown = (layer) => {
  const place = placeOf(layer);
  return place.folder ? `${place.folder}/` : place.files.join(', ');
};

const WARDEN = Object.keys(LAYERS).filter((l) => !l.startsWith('gate-'));
const GATE = Object.keys(LAYERS).filter((l) => l.startsWith('gate-'));

/** The fix for the refusals most likely to be tried, by `from` and the layers it reached for. */
const FIXES = [
  { from: ['console'], to: ['tools'], message: 'the console must act through admin/, not tools/' },
  {
    from: ['console'],
    to: ['server'],
    message: 'the console and the MCP edge share no code: take the piece from core/ or @warden-mcp/gate/io',
  },
  {
    from: WARDEN.filter((l) => l !== 'cli'),
    to: ['cli'],
    message: 'nothing imports cli/ (it is the thin shell): move what you need into the layer that owns it',
  },
  {
    from: WARDEN,
    to: GATE,
    message:
      'import the gate package by a documented subpath (exports in packages/gate/package.json), not by a path into packages/',
  },
  {
    from: GATE,
    to: WARDEN,
    message: 'the gate package is published on its own and imports nothing of Warden',
  },
];

/** An entry of boundaries/elements for each layer: folders by path from the root, files by name. */
const elements = Object.keys(LAYERS).flatMap((type) => {
  const place = placeOf(type);
  return place.folder
    ? [{ type, pattern: place.folder, partialMatch: false }]
    : place.files.map((pattern) => ({ type, pattern, mode: 'full' }));
});

const element = (types) => ({ element: { types } });
/** The imported file in a message, or the import as written when it does not resolve. */
const TARGET = '{{#if to.file.path}}{{to.file.path}}{{else}}{{dependency.source}}{{/if}}';
const policies = [
  ...Object.entries(LAYERS).flatMap(([layer, { may, fix }]) => [
    // Refused first, with the allow-list in the message; the allow below overrides it.
    {
      from: element([layer]),
      disallow: { to: { module: { origin: 'local' } } },
      message:
        `${shown(layer)} may import ${may.length ? `only ${may.map(shown).join(', ')}` : 'nothing of ours'}, ` +
        `not ${TARGET}: ${fix} (allow-lists in eslint.config.js)`,
    },
    ...FIXES.filter((f) => f.from.includes(layer)).map((f) => ({
      from: element([layer]),
      disallow: { to: element(f.to) },
      message: `${shown(layer)} must not import ${TARGET}: ${f.message}`,
    })),
    ...(may.length ? [{ from: element([layer]), allow: { to: element(may) } }] : []),
  ]),
];

/** Every file under src/ and packages/gate/src/ belongs to a layer, so none imports by default. */
const inALayer = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.physicalFilename
      .slice(import.meta.dirname.length + 1)
      .split('\\')
      .join('/');
    const known = Object.keys(LAYERS).some((layer) => {
      const place = placeOf(layer);
      return place.folder ? file.startsWith(`${place.folder}/`) : place.files.includes(file);
    });
    if (known) return {};
    return {
      Program(node) {
        context.report({
          node,
          message: `${file} is in no layer: add its folder to LAYERS in eslint.config.js, with the layers it may import`,
        });
      },
    };
  },
};

/** The subpaths the gate package documents (its `exports`), as `.`, `cli`, `io`, … */
const GATE_SUBPATHS = Object.keys(
  JSON.parse(readFileSync(`${import.meta.dirname}/packages/gate/package.json`, 'utf8')).exports,
).map((key) => (key === '.' ? '.' : key.slice(2)));

/**
 * A Warden layer imports the gate package only through the subpaths its entry in LAYERS lists
 * (none by default), and only through subpaths the package documents.
 */
const gateSubpaths = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.physicalFilename
      .slice(import.meta.dirname.length + 1)
      .split('\\')
      .join('/');
    const layer = WARDEN.find((l) => {
      const place = placeOf(l);
      return place.folder ? file.startsWith(`${place.folder}/`) : place.files.includes(file);
    });
    if (!layer) return {};
    const allowed = LAYERS[layer].gate ?? [];
    const check = (node) => {
      const source = node?.value;
      if (typeof source !== 'string' || !/^@warden-mcp\/gate(\/|$)/.test(source)) return;
      const sub = source === '@warden-mcp/gate' ? '.' : source.slice('@warden-mcp/gate/'.length);
      const shownList = allowed.length
        ? allowed.map((a) => (a === '.' ? '@warden-mcp/gate' : `@warden-mcp/gate/${a}`)).join(', ')
        : 'nothing of the gate package';
      if (!GATE_SUBPATHS.includes(sub))
        context.report({
          node,
          message: `${source} is not a subpath the gate package documents (exports in packages/gate/package.json): import one of ${GATE_SUBPATHS.join(', ')}`,
        });
      else if (!allowed.includes(sub))
        context.report({
          node,
          message: `${shown(layer)} may import ${shownList}, not ${source} (gate: in LAYERS, eslint.config.js)`,
        });
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
    };
  },
};

/** The layers: imports allowed only as LAYERS lists them (default: refused). */
export const layers = {
  files: ['src/**/*.ts', 'packages/gate/src/**/*.{ts,js}'],
  plugins: { boundaries, layers: { rules: { 'in-a-layer': inALayer, 'gate-subpaths': gateSubpaths } } },
  settings: {
    'boundaries/elements': elements,
    // Re-exports and import() are dependencies too, not only import statements.
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    // Named files use mode 'full' (a folder pattern cannot name one file); no legacy templates.
    'boundaries/legacy-templates': false,
    'boundaries/legacy-warnings': false,
  },
  rules: {
    'layers/in-a-layer': 'error',
    'layers/gate-subpaths': 'error',
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        checkUnknownLocals: true,
        message:
          '{{from.file.path}} is in no layer: add its folder to LAYERS in eslint.config.js, with the layers it may import',
        policies,
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'coverage/**',
      '**/dist/**',
      'test/fixtures/**',
      'packages/*/test/fixtures/**',
      // The Action's committed bundle: built by packages/gate/action/build.js, never edited.
      'packages/gate/action/bundle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        // The cycle check's configuration is the one TypeScript file outside tsconfig.json.
        projectService: { allowDefaultProject: ['dpdm.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['src/cli/**', 'packages/*/src/cli/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // The gate reads objects whose names come from schemas and values: a property may be named
    // `constructor` or `toString`, which `name in obj` finds on every object. Own members only.
    files: ['packages/gate/src/compat/**/*.ts', 'packages/gate/fuzz/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator='in'][left.type!='Literal']",
          message:
            'Use Object.hasOwn (or member from compat/own.ts): a name from a schema may be one every object inherits.',
        },
      ],
    },
  },
  {
    // Build scripts and executables: plain ES modules run by Node.
    files: ['build.js', 'bin/*.js', 'packages/*/build.js', 'packages/*/bin/*.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
  {
    // The console's two browser scripts (served as files: no inline script, no build step).
    files: ['src/console/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'fetch',
          'FormData',
          'URLSearchParams',
          'DOMParser',
          'setTimeout',
          'clearTimeout',
        ].map((g) => [g, 'readonly']),
      ),
    },
  },
  layers,
);
