// Runs the longest test files first, so that no long file starts when the other worker is almost done.
// Jest orders by the durations it recorded on the last run; a clean checkout (CI's) has none, and jest falls
// back to file size, which puts the small specification-suite files, among the longest, last. There, these
// rough durations (seconds on an idle 2-core machine) stand in; unlisted files follow, largest first.
import Sequencer from '@jest/test-sequencer';

const KNOWN = {
  'ordered-walk.test.ts': 60,
  'raw-fields.test.ts': 45,
  'content/projections.test.ts': 40,
  'count-walk.test.ts': 40,
  'oauth-fuzz.test.ts': 16,
  'content/nested.test.ts': 14,
  'live/processes.test.ts': 13,
  'oauth/rate-limit.test.ts': 13,
  'spec/more-specs.test.ts': 16,
  'store-tools/dump-restore.test.ts': 12,
  'foundation/cache-invalidation.test.ts': 11,
  'spec/crud.test.ts': 13,
  'spec/unified-format.test.ts': 5,
};

function estimate(path) {
  const name = Object.keys(KNOWN).find((suffix) => path.endsWith(`/${suffix}`));
  return name === undefined ? undefined : KNOWN[name];
}

export default class LongestFirst extends (Sequencer.default ?? Sequencer) {
  time(test) {
    return super.time(test) ?? estimate(test.path) ?? test.context.hasteFS.getSize(test.path) / 1e5;
  }
}
