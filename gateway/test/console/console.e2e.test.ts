import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, chromiumAvailable } from '../../src/testing/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

/**
 * The console as an operator uses it, in Debian's headless Chromium driven by playwright-core
 * (`.ci/setup-browser` installs it). Skipped when the browser is absent, except in CI.
 */
const available = chromiumAvailable("the console's browser test");

describe.skipIf(!available)('the console in headless Chromium', () => {
  let t: OperatorApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let shots: string;
  const fault = { down: false };
  /** Console errors and CSP violations (Chromium reports both on the console), and uncaught page errors. */
  const problems: string[] = [];
  let refusedRequestId: string;

  const webhook = (body: unknown, options: Parameters<typeof headersFor>[1] = {}) => {
    const raw = bodyOf(body);
    return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw, options), payload: raw });
  };
  const shoot = async (name: string) => {
    const path = join(shots, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).toBeGreaterThan(1_000);
  };

  beforeAll(async () => {
    // A search examines one entry a page, so a few deliveries show how a long search is paged.
    t = await openOperatorApp({ journal: true, engineFault: fault, journalSearch: { window: 1, windows: 1 } });
    expect((await webhook(sale({ id: 'E-1' }))).statusCode).toBe(200);
    const refused = await webhook(sale({ id: 'E-2' }), { secret: 'whsec_wrong_secret_0123456789abcdef' });
    expect(refused.statusCode).toBe(401);
    refusedRequestId = refused.headers['x-request-id'] as string;
    fault.down = true;
    expect((await webhook(sale({ id: 'E-500' }))).statusCode).toBe(500);
    fault.down = false; // the engine is back: the replay goes through
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    shots = mkdtempSync(join(tmpdir(), 'console-e2e-'));
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
    page = await (await browser.newContext()).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (shots && !process.env.CONSOLE_SCREENSHOTS_KEEP) rmSync(shots, { recursive: true, force: true });
  });

  it('signs in with the admin token (a wrong one is refused in words)', async () => {
    await page.goto(`${origin}/console`);
    await page.waitForURL(`${origin}/console/sign-in`);
    expect(await page.getByRole('heading', { level: 1, name: 'Sign in' }).isVisible()).toBe(true);
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not this gateway');
    // The refusal's 401 is the one console error expected (Chromium logs every failed status).
    expect(problems).toEqual(['error: Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
    problems.length = 0;
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/console`);
    expect(await page.getByRole('heading', { level: 1, name: 'Deliveries' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Deliveries' }).getAttribute('aria-current')).toBe('page');
    await shoot('1-deliveries');
  });

  it('finds a refused delivery by its request id with the filter form, and tells its story', async () => {
    await page.getByLabel('Request id').fill(refusedRequestId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\/console\?requestId=/);
    const rows = page.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(2); // the header and the one delivery
    expect(await rows.nth(1).getByRole('cell', { name: 'bad_signature' }).isVisible()).toBe(true);
    await shoot('2-filtered');
    await page.getByRole('link', { name: refusedRequestId }).click();
    await page.waitForURL(/\/console\/deliveries\//);
    expect(await page.getByRole('heading', { level: 1, name: `Delivery ${refusedRequestId}` }).isVisible()).toBe(true);
    expect(await page.getByText(/signature: refused/).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Replay', exact: true }).count()).toBe(0);
  });

  it('opens the failed (500) delivery and replays it: processed', async () => {
    await page.goto(`${origin}/console`);
    await page.getByLabel('Status').fill('500');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=500/);
    await page.getByRole('table').getByRole('row').nth(1).getByRole('link').click();
    await page.waitForURL(/\/console\/deliveries\//);
    expect(await page.getByText('HTTP 500 engine_unavailable_retry', { exact: true }).isVisible()).toBe(true);
    await shoot('3-failed-delivery');
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^Replayed as replay-[\w-]+: processed\.$/);
    const replays = page.getByRole('region', { name: 'Replays' });
    expect(await replays.getByRole('cell', { name: 'processed' }).isVisible()).toBe(true);
    await shoot('4-replayed');
  });

  it('a store that never sent: each page says how far back it searched, and "Search older deliveries" goes on to the end', async () => {
    await page.goto(`${origin}/console`);
    await page.getByLabel('Store').fill('store-that-never-sent');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/store=store-that-never-sent/);
    expect(await page.getByText(/^No delivery received since \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ matches these filters\.$/).isVisible()).toBe(
      true,
    );
    await shoot('5-searched-back');
    let pages = 1;
    while (await page.getByRole('link', { name: 'Search older deliveries' }).count()) {
      await page.getByRole('link', { name: 'Search older deliveries' }).click();
      await page.waitForURL(/cursor=/);
      pages += 1;
      expect(pages).toBeLessThan(20);
    }
    expect(await page.getByText('No delivery matches these filters.', { exact: true }).isVisible()).toBe(true);
    // One entry a page: the journal's entries so far (three sales and the replay) and one more page to find its end.
    expect(pages).toBeGreaterThanOrEqual(4);
  });

  it('the deliveries fit 1280 px, each request id on one line, and read at 390 px; the replayed delivery says it was recovered and offers no Replay', async () => {
    // A vendor's own long X-Request-ID, and a sale that earned nothing.
    const longId = `VENDOR-${'0123456789'.repeat(12)}`;
    const raw = bodyOf(sale({ id: 'E-WALKIN', customer: null }));
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/webhooks/generic',
          headers: { ...headersFor(raw), 'x-request-id': longId },
          payload: raw,
        })
      ).statusCode,
    ).toBe(200);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/console`);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    const ids = page.locator('td[data-label="Request id"] a');
    const lineHeight = await page.evaluate<number>(
      `parseFloat(getComputedStyle(document.querySelector('td[data-label="Status"]')).lineHeight)`,
    );
    for (const height of await ids.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().height)))
      expect(height).toBeLessThan(lineHeight * 1.5);
    expect(await page.getByRole('link', { name: longId }).getAttribute('title')).toBe(longId);
    expect(await page.getByRole('row').filter({ hasText: 'E-WALKIN' }).getByRole('cell', { name: 'nothing: a walk-in' }).isVisible()).toBe(
      true,
    );
    await shoot('6-deliveries-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shoot('6-deliveries-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Earned').selectOption('walk_in');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/nothingEarned=walk_in/);
    expect(await page.getByRole('table').getByRole('row').count()).toBe(2);
    // The unfiltered list (a filtered one here searches one entry a page).
    await page.goto(`${origin}/console`);
    await page.getByRole('row').filter({ hasText: 'Recovered by a replay.' }).getByRole('link').click();
    await page.waitForURL(/\/console\/deliveries\//);
    expect(
      await page.getByText(/^Recovered: replay \S+ answered HTTP 200 processed \(this delivery had failed: engine earn: /).isVisible(),
    ).toBe(true);
    expect(await page.getByRole('button', { name: 'Replay', exact: true }).count()).toBe(0);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    await shoot('6-recovered');
  });

  it('promotes a vendor from the vendors page', async () => {
    await page.getByRole('link', { name: 'Vendors' }).click();
    await page.waitForURL(`${origin}/console/vendors`);
    // Promotion asks first, counting the stores it affects.
    await page.getByRole('link', { name: 'Promote Clover' }).click();
    await page.getByRole('button', { name: 'Promote Clover (0 stores)' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Clover is now featured.');
    expect(await page.getByRole('link', { name: 'Demote Clover' }).isVisible()).toBe(true);
    expect((await t.store.getVendor('clover'))?.tier).toBe('featured');
    await shoot('5-promoted');
  });

  it('the connections page says when each store was last seen and how its last hour went', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.waitForURL(`${origin}/console/connections`);
    const row = page.getByRole('row').filter({ hasText: 'store-001' });
    expect(await row.getByRole('cell').nth(4).textContent()).toMatch(/^\d+ requests: 1 \([\d.]+ %\) refused, 1 \([\d.]+ %\) failed$/);
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(\d{3}\)$/);
    expect(await page.getByRole('columnheader', { name: 'Last hour' }).isVisible()).toBe(true);
    await shoot('6-connections');
  });

  it('had no console errors and no CSP violations on any page', () => {
    expect(problems).toEqual([]);
  });
});
