// One Jest run over every workspace, so `npm test` ends with one summary.
// Tests run as native ES modules (node --experimental-vm-modules) transformed by SWC;
// workspace packages resolve to their TypeScript sources through the "@tributary/source" condition.
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2023', keepClassNames: true },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const project = (rootDir, displayName, extra = {}) => ({
  displayName,
  rootDir,
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['@tributary/source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  ...extra,
});

export default {
  projects: [
    project('<rootDir>/services/kit', 'kit'),
    project('<rootDir>/services/stack', 'stack'),
    project('<rootDir>/services/bnpl', 'bnpl'),
    project('<rootDir>/services/crypto', 'crypto'),
    project('<rootDir>/services/photos', 'photos'),
    project('<rootDir>/workflows', 'workflows'),
    project('<rootDir>/schema', 'schema'),
    project('<rootDir>/gateway', 'gateway'),
    project('<rootDir>/tests', 'system'),
  ],
  testTimeout: 60_000,
  // ESM test modules are not all released between files (vm modules), so one process running every file grows past
  // any heap limit as the suite grows. With a limit Jest runs the files in a worker (one on a 2-core machine, as
  // before) and replaces it once it holds more than this after a file: memory stays bounded however many files.
  workerIdleMemoryLimit: '2GB',
};
