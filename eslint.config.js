// Flat config: typescript-eslint everywhere; workflow code additionally may not touch Node built-ins
// or non-deterministic APIs, because Temporal replays it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs',
  'fs/promises', 'http', 'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream',
  'timers', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

/** Routers are made by the kit (serviceRouter), so every router matches paths the same way as the guards before it. */
const expressRouter = {
  name: 'express',
  importNames: ['Router'],
  message: "Use serviceRouter() from @tributary/kit: every router matches case-sensitively and strictly, like its guards.",
  allowTypeImports: true,
};

const doorMessage = "Import another module through its index.ts (its only door), not one of its files.";
/** Import specifiers that reach into a module's files instead of its index.ts. */
const moduleDoors = {
  // From anywhere in a service's src/: `./modules/x/y.js`, `../modules/x/y.js`.
  fromOutside: { regex: '^(\\./|\\.\\./)+modules/[^/]+/(?!index\\.js$)', message: doorMessage },
  // From a module's file: a sibling module's file `../x/y.js`.
  fromSibling: { regex: '^\\.\\./(?!\\.)[^/]+/(?!index\\.js$)', message: doorMessage },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.stack/**', '.turbo/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The stack runner and operator CLIs talk to a terminal.
    files: ['services/stack/**', '**/src/cli.ts', '**/src/cli/**', '**/bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // A service's modules meet only at their doors: another module's files are reached through its index.ts.
    files: ['services/{bnpl,crypto,photos}/src/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [expressRouter], patterns: [moduleDoors.fromOutside] }] },
  },
  {
    files: ['services/{bnpl,crypto,photos}/src/modules/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [expressRouter], patterns: [moduleDoors.fromOutside, moduleDoors.fromSibling] }] },
  },
  {
    files: ['workflows/src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins.flatMap((m) => [m, `node:${m}`]).map((name) => ({ name, message: 'Workflow code is replayed deterministically: no Node built-ins. Call an activity instead.' })),
        patterns: [{ group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@tributary/kit', '@tributary/kit/*'], message: 'Workflows import only @temporalio/workflow, activity types and workflow-local modules.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop from @temporalio/workflow.' },
        { name: 'fetch', message: 'Network I/O belongs in an activity.' },
        { name: 'process', message: 'No process access in workflow code.' },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
