// ESM jest with ts-jest (transpile only: `npm run typecheck` checks types). The global setup builds dist/ (the
// command-line tests spawn dist/src/cli.js) and starts one engine the wire-level tests share.
/** @type {import('jest').Config} */
export default {
  displayName: 'engine',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 30000,
};
