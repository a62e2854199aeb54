// MongoDB's CRUD specification tests (unified format, vendored unchanged in crud/) against the engine.
import { specSuite } from './unified/suite.js';

specSuite('crud');
