import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, chromiumAvailable } from '../../src/testing/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

/**
 * The directory as a person sees it, in Debian's headless Chromium driven by playwright-core
 * (`.ci/setup-browser` installs it). Skipped when the browser is absent, except in CI, where a
 * missing browser is a failure.
 */
const available = chromiumAvailable("the directory's browser test");

describe.skipIf(!available)('directory in headless Chromium', () => {
  let t: OperatorApp;
  let browser: Browser;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    t = await openOperatorApp();
    await t.admin('POST', '/admin/vendors/clover/promote'); // featured: shopify (seeded) and clover; not square, not acme-pos
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
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
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the featured vendors as links with accessible names, and no other vendor', async () => {
    const response = await page.goto(`${origin}/directory`);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Featured integrations');
    expect(await page.getByRole('heading', { level: 1, name: 'Featured integrations' }).isVisible()).toBe(true);
    const list = page.getByRole('list', { name: 'Featured integrations' });
    expect(await list.getByRole('listitem').count()).toBe(2);
    expect(await page.getByRole('link', { name: 'Set up Shopify' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Set up Clover' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /Square/ }).count()).toBe(0);
    expect(await page.getByText('Acme POS').count()).toBe(0);
  });

  it('clicking a vendor opens its setup page: webhook URL, credential labels, steps, Copy', async () => {
    await page.goto(`${origin}/directory`);
    await page.getByRole('link', { name: 'Set up Clover' }).click();
    await page.waitForURL(`${origin}/directory/clover`);
    expect(await page.getByRole('heading', { level: 1, name: 'Set up Clover' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Your webhook URL' }).isVisible()).toBe(true);
    expect(await page.getByText(`${origin}/webhooks/clover`, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('rowheader', { name: 'OAuth access token' }).isVisible()).toBe(true);
    for (const step of ['Install the app and connect the merchant', 'Subscribe and store the auth code', 'Test']) {
      expect(await page.getByRole('heading', { level: 3, name: step, exact: true }).isVisible()).toBe(true);
    }
    const steps = page.getByRole('list').filter({ has: page.getByRole('heading', { level: 3 }) });
    expect(await steps.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);

    const copy = page.getByRole('button', { name: 'Copy' });
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Copied');
    // The page's script runs in the browser (no DOM types in this Node project).
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${origin}/webhooks/clover`);
    if (process.env.DIRECTORY_SCREENSHOT) await page.screenshot({ path: process.env.DIRECTORY_SCREENSHOT, fullPage: true });
  });

  it('a non-featured vendor has no setup page: the 404 page says so and links back', async () => {
    const response = await page.goto(`${origin}/directory/acme-pos`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1, name: 'Integration not found' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'See the featured integrations' }).click();
    await page.waitForURL(`${origin}/directory`);
  });
});
