// ESM jest with ts-jest: type-graphql needs decorator metadata, which only the TypeScript compiler emits.
// Two projects: the service's tests here, and the engine package's own (packages/engine/jest.config.js).
// The service's tests import the engine's TypeScript source by its package name, as they import the service's.
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
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
};

/** @type {import('jest').Config} */
export default {
  projects: [service, '<rootDir>/packages/engine'],
  // A global option: the projects' own testTimeout is not read when they run as projects.
  testTimeout: 30000,
  maxWorkers: 2,
};
