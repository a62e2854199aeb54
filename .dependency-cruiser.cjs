// dependency-cruiser: no import cycles, and data flows one way (HTTP -> REST shim | GraphQL resolver ->
// operation -> store; the engine underneath knows nothing of the service). `npm run lint:deps` checks it.
//
// Paths are regular expressions on repository-relative paths. The engine is packages/engine (the
// @gateway/engine workspace package); the service is src/.

const ENGINE = '^packages/engine/';
const SERVICE = { path: '^src/' };
// The engine as imported by name (npm workspaces link it under node_modules).
const ENGINE_BY_NAME = '(^|/)node_modules/@gateway/engine/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This import closes a cycle (type-only imports count). Move what both sides need into a module ' +
        'that neither of them imports, or pass it in.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-imports-no-service',
      severity: 'error',
      comment: 'The embedded engine is a package of its own: it must not import anything of the service (src/).',
      from: { path: ENGINE },
      to: SERVICE,
    },
    {
      name: 'store-imports-no-upper-layer',
      severity: 'error',
      comment:
        'store/ is the bottom of the service: it must not import resolvers/, rest/, graphql/, http/ or cache/ ' +
        '(they call the store, not the other way round; changes flow up as change-stream events).',
      from: { path: '^src/store/' },
      to: { path: '^src/(resolvers|rest|graphql|http|cache)/' },
    },
    {
      name: 'schema-touches-no-store',
      severity: 'error',
      comment:
        'schema/ holds API shapes only; stored documents are mapped to them by the store-to-API mappers, ' +
        'so schema/ must not import store/ or the engine.',
      from: { path: '^src/schema/' },
      to: { path: ['^src/store/', '^packages/engine/', ENGINE_BY_NAME] },
    },
    {
      name: 'cache-imports-no-upper-layer',
      severity: 'error',
      comment:
        'cache/ is fed by change events and used by the HTTP edge; it must not import http/, graphql/, ' +
        'rest/, resolvers/, openapi/ or playground/.',
      from: { path: '^src/cache/' },
      to: { path: '^src/(http|graphql|rest|resolvers|openapi|playground)/' },
    },
    {
      name: 'operations-import-no-transport',
      severity: 'error',
      comment:
        'An operation is one use case shared by GraphQL and REST: it must not import resolvers/, rest/, ' +
        'http/ or GraphQL execution (graphql/; the generated operation types are allowed). Validation ' +
        'and errors it needs belong to it or to src/errors.ts.',
      from: { path: '^src/operations/' },
      to: { path: '^src/(resolvers|rest|http|graphql)/', pathNot: '^src/graphql/generated[.]ts$' },
    },
    {
      // Without this, an import that does not resolve would escape every rule above.
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'This import cannot be resolved to a file or an installed package.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a cycle through `import type` is still a cycle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Cruised from the repository root: only these folders (packages/ may not exist yet), and the
    // packages they import, as leaves.
    includeOnly: '^(src|scripts|bench|test|packages|node_modules)/',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)coverage/', '(^|/)__generated__/'] },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // '@gateway/source' first: a workspace package resolves to its TypeScript source (as tsconfig's
      // customConditions does for tsc), not to a dist/ that is not built yet when CI lints.
      conditionNames: ['@gateway/source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      archi: { collapsePattern: '^(packages/[^/]+|src/[^/]+|test|scripts|bench)/|node_modules/(@[^/]+/[^/]+|[^/]+)' },
    },
  },
};
