// Runs the longest test files first, so that no long file starts when the other worker is almost done.
// Jest orders by the durations it recorded on the last run; a clean checkout (CI's) has none, and jest falls
// back to file size, which puts the small specification-suite files, among the longest, last. There, these
// durations (seconds in a whole run on an idle 2-core machine) stand in; unlisted files follow, largest first.
import Sequencer from '@jest/test-sequencer';

const KNOWN = {
  'count-walk.test.ts': 28,
  'ordered-walk.test.ts': 28,
  'store-tools/copy.test.ts': 24,
  'foundation/trusted-documents-cli.test.ts': 24,
  'foundation/process.test.ts': 23,
  'raw-fields.test.ts': 21,
  'spec/more-specs.test.ts': 20,
  'index-build-sorter.test.ts': 19,
  'spec/crud.test.ts': 17,
  'foundation/readme.test.ts': 15,
  'openapi/docs-browser.test.ts': 14,
  'rest/product-categories-ready.test.ts': 14,
  'durability.test.ts': 13,
  'webhooks/processes.test.ts': 13,
  'live/token-lifetime.test.ts': 12,
  'webhooks/webhook-cli.test.ts': 12,
  'browser/chromium.test.ts': 12,
  'fuzz/fuzz.test.ts': 12,
  'rest/page-issues-ready.test.ts': 12,
  'live/role-cli.test.ts': 11,
  'oauth/key-rotation.test.ts': 10,
  'oauth/client-cli.test.ts': 10,
  'cdn/purge-coalescing.test.ts': 10,
  'editorial/scheduled-publishing.test.ts': 9,
  'foundation/embedded-pause.test.ts': 9,
  'fuzz/concurrent-answers.test.ts': 8,
  'content/projections.test.ts': 8,
  'churn.test.ts': 8,
  'commit-wait.test.ts': 8,
  'fuzz/oauth-fuzz.test.ts': 8,
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
