// MongoDB's index-management specification tests (unified format, vendored in index-management/).
import { specSuite } from './unified/suite.js';

specSuite('index-management');
