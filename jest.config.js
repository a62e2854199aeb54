// ESM jest with swc: .swcrc emits the decorator metadata type-graphql reads, as tsc does, at a fraction of
// ts-jest's cost on a cold cache (CI's); the global setup builds dist/ with the same settings.
import { readFileSync } from 'node:fs';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testSequencer: '<rootDir>/test/helpers/sequencer.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
};
