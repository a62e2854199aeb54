// Headless Debian Chromium through playwright-core, for the tests that look at a page as a person would.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumPresent = existsSync(CHROMIUM);
/** Generous: the machine may be busy, and a page that never appears fails the test anyway. */
export const WAIT = { timeout: 45_000 };

/**
 * A browser and a page whose console errors, script errors and failed requests are collected in
 * `problems`: any of them would mean a broken page in someone's browser.
 */
export async function openPage(problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    ...WAIT,
    executablePath: CHROMIUM,
    // The closed network refuses Chromium's background connections: turn them off.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  return { browser, page };
}
