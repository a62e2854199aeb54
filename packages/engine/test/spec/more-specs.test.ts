// More of MongoDB's specification tests (unified format, vendored unchanged; test/spec/README.md
// says from where): collection management, runCommand, command monitoring, read/write concern, the
// versioned API, sessions, retryable reads and writes, GridFS.
import { specSuite } from './unified/suite.js';

for (const group of [
  'collection-management',
  'run-command',
  'command-monitoring',
  'read-write-concern',
  'versioned-api',
  'sessions',
  'retryable-reads',
  'retryable-writes',
  'gridfs',
])
  specSuite(group);
