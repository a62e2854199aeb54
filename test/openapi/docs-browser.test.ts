// The /docs viewer in a real browser: headless Chromium (Debian's /usr/bin/chromium, via playwright-core)
// renders every operation from /openapi.json under the page's own CSP with no console error (a CSP
// violation is one), and "Try it out" on the catalogue list reaches this service and shows its 200.
// Skipped where /usr/bin/chromium is absent. Screenshot: test-artifacts/openapi-docs.png.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { projectRoot } from '../../src/version.js';
import { insertCatalogue } from '../catalogue/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { WAIT, chromiumPresent, openPage } from '../helpers/browser.js';

const present = chromiumPresent;

/** A port free right now, so the document's `servers` URL can name the port the service will listen on. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

(present ? describe : describe.skip)('/docs in headless Chromium', () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    svc = await startTestService({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
      beforeStart: insertCatalogue,
    });
    ({ browser, page } = await openPage(problems));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('renders every operation, the deprecated alias marked, without a console error', async () => {
    await page.goto(`${svc.config.publicUrl}/docs`, WAIT);
    await page.locator('.opblock').nth(6).waitFor(WAIT);
    expect(await page.locator('.opblock').count()).toBe(7);
    await expect(page.locator('#operations-Cart-removeCouponFromCartLegacy.opblock-deprecated').count()).resolves.toBe(
      1,
    );
    expect(problems).toEqual([]);
  }, 120_000);

  test('"Try it out" on the category list calls this service and shows its 200', async () => {
    const operation = page.locator('#operations-Catalogue-listProductCategories');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();
    await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor(WAIT);
    expect(
      (await operation.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(),
    ).toBe('200');
    mkdirSync(join(projectRoot, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(projectRoot, 'test-artifacts', 'openapi-docs.png'), fullPage: false });
    expect(problems).toEqual([]);
  }, 120_000);
});
