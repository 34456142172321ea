// One lint command guards the architecture: imports point one way, and
// server code never writes to stdout (it is the stdio transport).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Folders a layer must not import from, so the dependency arrows stay one-way. */
const forbidden = {
  untrusted: ['admin', 'core', 'store', 'tools', 'server', 'cli', 'doctor', 'console', 'oauth'],
  core: ['admin', 'store', 'tools', 'server', 'cli', 'compat', 'doctor', 'console', 'oauth'],
  store: ['admin', 'tools', 'server', 'cli', 'compat', 'doctor', 'console', 'oauth'],
  tools: ['admin', 'server', 'cli', 'compat', 'doctor', 'console', 'oauth'],
  admin: ['server', 'cli', 'compat', 'doctor', 'console', 'oauth'],
  server: ['cli', 'compat', 'doctor', 'console', 'oauth'],
  oauth: ['server', 'cli', 'compat', 'doctor', 'console'],
  console: ['cli', 'compat', 'doctor'],
  doctor: ['admin', 'store', 'tools', 'server', 'cli', 'console', 'oauth'],
};

/** Warden reaches the gate package by its name and public entry points, never by a path into it. */
const packageByName = {
  group: ['**/packages/**', '@warden-mcp/gate/src/**', '@warden-mcp/gate/dist/**'],
  message: 'import the gate package by name (@warden-mcp/gate, /cli, /connect, /io, /text), not by path.',
};

const layerRules = Object.entries(forbidden).map(([layer, banned]) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...banned.map((b) => ({
            group: [`**/${b}/**`, `**/${b}/*`, `../${b}`, `../../${b}`],
            message: `src/${layer} must not import from src/${b} (see STYLE: imports point one way).`,
          })),
          packageByName,
        ],
      },
    ],
  },
}));

/**
 * The gate package stands alone (it is published on its own): nothing of Warden above it.
 * Inside it, the compat library knows neither the CLI nor connections; connections know no CLI.
 */
const gateLayers = {
  text: ['cli', 'connect', 'compat'],
  compat: ['cli', 'connect'],
  connect: ['cli', 'compat', 'text'],
  cli: [],
};
const gateRules = Object.entries(gateLayers).map(([layer, banned]) => ({
  files: [`packages/gate/src/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/src/*', '**/src/**', '@warden-mcp/gate', '@warden-mcp/gate/*'],
            message: 'the gate package imports nothing of Warden, and itself only by relative path.',
          },
          ...banned.map((b) => ({
            group: [`../${b}/*`, `../../${b}/*`, `../${b}`, `../../${b}`],
            message: `packages/gate/src/${layer} must not import from ${b} (imports point one way).`,
          })),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'coverage/**',
      '**/dist/**',
      'test/fixtures/**',
      'packages/*/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
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
  ...layerRules,
  ...gateRules,
);
