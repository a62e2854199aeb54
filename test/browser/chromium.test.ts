// The playground in a real browser: headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) loads GET /graphql from a service on a fresh store seeded with the demo data, runs
// the preloaded nested query and finds the stored values in the result panel, then sends an
// Authorization header set in the header editor. Screenshot: test-artifacts/playground.png.
// Runs in `npm test` and `npm run test:browser` wherever /usr/bin/chromium exists (CI installs it).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_QUERY } from '../../src/playground/index.js';
import { projectRoot } from '../../src/version.js';
import { createLogger } from '../../src/logger.js';
import { runSeeders } from '../../src/seed/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { CHROMIUM, WAIT, chromiumPresent, openPage } from '../helpers/browser.js';
import { ensurePlaygroundBundle } from './bundle.js';
import { liveMessage, liveMessages } from '../live/fixtures.js';

const ARTIFACTS = join(projectRoot, 'test-artifacts');
const present = chromiumPresent;
if (!present)
  process.stderr.write(`[browser test] ${CHROMIUM} not found: skipping (apt-get install chromium chromium-driver)\n`);

// The demo page the preloaded query asks for.
const DEMO_PAGE_ID = /page\(id: "([^"]+)"\)/.exec(DEFAULT_QUERY)![1]!;

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
// Variables and headers share one panel; the headers tab is the one open at first (and stays open).
const HEADER_EDITOR = '.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden) .CodeMirror';
const RESULT = '.result-window .CodeMirror';
// Generous: on a busy two-core machine, parsing the 1.2 MB bundle alone can take many seconds.

// The page's DOM, as far as these tests touch it (the functions below run in the browser; tsconfig has no DOM lib).
interface CodeMirrorElement {
  CodeMirror: { getValue(): string; setValue(v: string): void };
}
declare const document: { querySelector(selector: string): CodeMirrorElement | null };

/** A CodeMirror 5 editor's whole text (the DOM holds only the lines in view). */
const editorText = (page: Page, selector: string): Promise<string> =>
  page.evaluate((sel) => document.querySelector(sel)!.CodeMirror.getValue(), selector);
const setEditorText = (page: Page, selector: string, text: string): Promise<void> =>
  page.evaluate(([sel, value]) => document.querySelector(sel!)!.CodeMirror.setValue(value!), [selector, text]);
/** Waits until the result panel holds a response with data. */
const resultArrives = (page: Page): Promise<unknown> =>
  page.waitForFunction((sel) => /"data"/.test(document.querySelector(sel)?.CodeMirror.getValue() ?? ''), RESULT, WAIT);

(present ? describe : describe.skip)('playground in headless Chromium', () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const authorizations: Array<string | undefined> = [];
  const problems: string[] = [];

  beforeAll(async () => {
    await ensurePlaygroundBundle();
    svc = await startTestService({
      authenticate: async (authorization) => {
        authorizations.push(authorization);
        return null;
      },
      // The demo's content only: the query reads nothing else, and customers (argon2) are slow to seed.
      beforeStart: (store) =>
        runSeeders(store, { scale: 'demo', log: createLogger('silent'), only: ['content'] }).then(() => undefined),
    });
    ({ browser, page } = await openPage(problems));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('loads with the schema docs, the first query and the header editor; runs it and shows the stored values', async () => {
    await page.goto(`${svc.url}/graphql`, WAIT);
    // The docs panel lists the root types once introspection has answered.
    await page.locator('.graphiql-doc-explorer').getByText('Root Types').waitFor(WAIT);
    expect(await editorText(page, QUERY_EDITOR)).toContain(DEFAULT_QUERY.trim());
    expect(JSON.parse(await editorText(page, HEADER_EDITOR))).toEqual({ Authorization: '' });

    await page.locator('.graphiql-execute-button').click();
    await resultArrives(page);

    const shown = JSON.parse(await editorText(page, RESULT));
    const expected = await svc.gql(DEFAULT_QUERY);
    expect(expected.body.errors).toBeUndefined();
    expect(shown).toEqual({ data: expected.body.data });
    // The demo page's name as the driver reads it from the store, and an article title three levels
    // down, in the result; the name on screen, not just in the editor's model.
    const stored = await svc.db.collection<{ _id: string; name: string }>('pages').findOne({ _id: DEMO_PAGE_ID });
    expect(shown.data.page.name).toBe(stored!.name);
    expect(shown.data.page.issues.edges[0].node.contents[0].articles[0].title).toEqual(expect.any(String));
    await expect(page.locator('.result-window').getByText(`"${stored!.name}"`).isVisible()).resolves.toBe(true);
    // The empty Authorization value of the default headers is not sent.
    expect(authorizations.at(-1)).toBeUndefined();

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png') });
    expect(problems).toEqual([]);
  }, 180_000);

  test('an Authorization header set in the header editor goes with the request', async () => {
    await setEditorText(page, HEADER_EDITOR, '{ "Authorization": "Bearer playground-test-token" }');
    await setEditorText(page, RESULT, '');
    await page.locator('.graphiql-execute-button').click();
    await resultArrives(page);
    expect(authorizations.at(-1)).toBe('Bearer playground-test-token');
    expect(problems).toEqual([]);
  }, 180_000);

  test('runs a subscription over graphql-ws and shows the messages as they are posted', async () => {
    const blog = await svc.db.collection<{ _id: string }>('liveBlogs').findOne({});
    await setEditorText(
      page,
      QUERY_EDITOR,
      `subscription { liveBlogMessageAdded(liveBlogId: "${blog!._id}") { text } }`,
    );
    await setEditorText(page, RESULT, '');
    await page.locator('.graphiql-execute-button').click();
    // The server registers the subscription asynchronously: post until a message shows up.
    const shown = (): Promise<unknown> =>
      page.waitForFunction(
        (sel) => /posted while watching/.test(document.querySelector(sel)?.CodeMirror.getValue() ?? ''),
        RESULT,
        { timeout: 1_000 },
      );
    for (let i = 0; ; i++) {
      await liveMessages(svc.db).insertOne(
        liveMessage(`browser-${i}`, blog!._id, 1_000_000 + i, `posted while watching ${i}`),
      );
      try {
        await shown();
        break;
      } catch (err) {
        if (i >= 60) throw err;
      }
    }
    expect(JSON.parse(await editorText(page, RESULT))).toEqual({
      data: { liveBlogMessageAdded: { text: expect.stringMatching(/^posted while watching \d+$/) } },
    });
    // The header editor's Authorization went along in connection_init.
    expect(authorizations.at(-1)).toBe('Bearer playground-test-token');
    expect(problems).toEqual([]);
  }, 180_000);
});
