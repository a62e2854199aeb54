// ESM jest with swc: .swcrc emits the decorator metadata type-graphql reads, as tsc does, at a fraction of
// ts-jest's cost on a cold cache (CI's); the global setup builds dist/ with the same settings.
// Two projects: the service's tests here, and the engine package's own (packages/engine/jest.config.js).
// The service's tests import the engine's TypeScript source by its package name, as they import the service's.
import { readFileSync } from 'node:fs';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));

/** @type {import('jest').Config} */
const service = {
  displayName: 'service',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@gateway/engine$': '<rootDir>/packages/engine/src/index.ts',
    '^@gateway/engine/(.*)$': '<rootDir>/packages/engine/src/$1.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
};

/** @type {import('jest').Config} */
export default {
  projects: [service, '<rootDir>/packages/engine'],
  // Global options: the projects' own are not read when they run as projects.
  testSequencer: '<rootDir>/test/helpers/sequencer.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
  // Jest keeps each ESM test file's module registry alive in its worker (jestjs/jest#14605), about 30 MB a file
  // here: left alone, a worker's heap reaches 2.5 GB and garbage collection over it triples the CPU of the files
  // that run last. A worker above this heap is replaced between files (a new worker costs well under a second).
  workerIdleMemoryLimit: '600MB',
};
