// Each test file gets its own database on the shared test server (embedded engine or MONGODB_URI): the same
// helpers as the engine package's tests, which start or find that server the same way.
export { openTestDb, testMongoUri, uniqueDbName } from '../../packages/engine/test/helpers/db.js';
