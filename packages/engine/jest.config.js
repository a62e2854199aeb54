// ESM jest with swc (transpile only: `npm run typecheck` checks types), from the package's .swcrc. The global
// setup builds dist/ (the command-line tests spawn dist/src/cli.js) and starts one engine the wire-level tests share.
import { readFileSync } from 'node:fs';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));

/** @type {import('jest').Config} */
export default {
  displayName: 'engine',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 30000,
};
