import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { CHROMIUM, chromiumAvailable } from '../../src/testing/chromium.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

/**
 * An operator's first hour, in the console only, in Debian's headless Chromium: a fresh gateway
 * (no vendor, no merchant) → a vendor → a merchant and its outlet → a connection, its secret read
 * once through the Copy button → a signed sale → found in the deliveries → rotate, deactivate →
 * Shopify's provider settings through the form generated from its adapter → promoted, connected,
 * demoted after a confirmation that counts its stores. Each page is photographed at 1280 and 390
 * px (CONSOLE_SCREENSHOTS_KEEP=1 keeps them, and says where) to review the layout.
 */
const available = chromiumAvailable("the console's onboarding browser test");

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

describe.skipIf(!available)('onboarding through the console in headless Chromium', () => {
  let t: OperatorApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let origin: string;
  let shots: string;
  let secret: string;
  let connectionId: string;
  /** Console errors and CSP violations (Chromium reports both on the console), and uncaught page errors. */
  const problems: string[] = [];

  const send = (body: unknown, options: Parameters<typeof headersFor>[1]) => {
    const raw = bodyOf(body);
    return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw, options), payload: raw });
  };
  /** The page at 1280 px and at 390 px (whole page), then back to 1280; neither may scroll sideways. */
  const shoot = async (name: string) => {
    for (const [size, viewport] of [
      ['1280', WIDE],
      ['390', NARROW],
    ] as const) {
      await page.setViewportSize(viewport);
      const path = join(shots, `${name}-${size}.png`);
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size).toBeGreaterThan(1_000);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow, `${name} at ${size} px scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize(WIDE);
  };
  const go = async (link: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link }).click();
    await page.waitForLoadState();
  };
  const notice = () => page.getByRole('status').textContent();
  const alert = () => page.getByRole('alert').textContent();
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');

  beforeAll(async () => {
    t = await openOperatorApp({ journal: true, seedDocument: { codePrefix: 'LOYAL', vendors: [], merchants: [] } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    shots = mkdtempSync(join(tmpdir(), 'console-onboarding-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    context = await browser.newContext({ viewport: WIDE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    page = await context.newPage();
    page.on('console', (message) => {
      // A refused form answers 4xx with the page again: Chromium logs each such status, which is expected.
      if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (shots && process.env.CONSOLE_SCREENSHOTS_KEEP) console.log(`console screenshots kept in ${shots}`);
    else if (shots) rmSync(shots, { recursive: true, force: true });
  });

  it('signs in to an empty gateway', async () => {
    await page.goto(`${origin}/console`);
    await page.waitForURL(`${origin}/console/sign-in`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/console`);
  });

  it('adds a generic vendor (a bad slug is refused in the admin API words, the form keeps what was typed)', async () => {
    await go('Vendors');
    await page.getByRole('textbox', { name: /^Slug/ }).fill('Acme POS');
    await page.getByLabel('Name', { exact: true }).fill('Acme POS');
    await page.getByRole('button', { name: 'Add vendor' }).click();
    await expect.poll(alert).toContain('The request failed validation: slug');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Acme POS');
    expect(await t.store.getVendor('Acme POS')).toBeNull();
    await shoot('1-vendor-refused');
    await page.getByRole('textbox', { name: /^Slug/ }).fill('acme-pos');
    await page.getByRole('button', { name: 'Add vendor' }).click();
    await expect.poll(notice).toContain('Acme POS added as a generic vendor (slug acme-pos)');
    const row = page.getByRole('row').filter({ hasText: 'Acme POS' });
    await row.getByRole('button', { name: 'Copy the slug acme-pos' }).click();
    await expect.poll(clipboard).toBe('acme-pos');
    await shoot('2-vendors');
  });

  it('adds a merchant and its outlet; their ids are shown with Copy buttons', async () => {
    await go('Merchants');
    expect(await page.getByText('No merchants yet.').isVisible()).toBe(true);
    for (const [label, value] of [
      ['Merchant id', 'm-bean'],
      ['Name', 'Bean There'],
      ['Currency', 'USD'],
      ['Default country code', '1'],
      ['Earn rate', '1'],
      ['Redemption rate', '100'],
    ] as const) {
      await page.getByRole('form').or(page.locator('form[action="/console/merchants"]')).getByLabel(label, { exact: true }).fill(value);
    }
    await page.getByRole('button', { name: 'Add merchant' }).click();
    await expect.poll(notice).toContain('Merchant Bean There (m-bean) added');
    await page.getByLabel('New outlet id').fill('o-downtown');
    await page.getByLabel('Outlet name').fill('Downtown');
    await page.getByRole('button', { name: 'Add outlet to Bean There' }).click();
    await expect.poll(notice).toContain('Outlet Downtown (o-downtown) added to merchant m-bean');
    await page.getByRole('button', { name: 'Copy the outlet id o-downtown' }).click();
    await expect.poll(clipboard).toBe('o-downtown');
    expect((await t.engine.listMerchants()).map((m) => [m.id, m.outlets.map((o) => o.id)])).toEqual([['m-bean', ['o-downtown']]]);
    await shoot('3-merchants');
  });

  it('connects a store: the secret is shown once, and copied with its button', async () => {
    await go('Connections');
    expect(await page.getByText('No connections yet.').isVisible()).toBe(true);
    await page.getByLabel('Vendor').selectOption('acme-pos');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console\/connections\/new\?vendor=acme-pos/);
    await page.getByLabel(/^Store id/).fill('till-001');
    await page.getByLabel('Merchant / outlet').selectOption({ label: 'Bean There (m-bean) / Downtown (o-downtown)' });
    await shoot('4-new-connection');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Connection created');
    expect(await notice()).toContain('never shown again');
    secret = (await page.locator('#secret').textContent())!;
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect.poll(clipboard).toBe(secret);
    connectionId = (await t.store.listConnections({ vendor: 'acme-pos' }))[0]!.id;
    expect(await page.getByText(connectionId, { exact: true }).isVisible()).toBe(true);
    await shoot('5-secret');
    await go('Connections');
    expect(await page.content()).not.toContain(secret);
  });

  it('a signed sale to the new connection is processed and found in the deliveries', async () => {
    const answer = await send(sale({ id: 'FIRST-SALE', store: 'till-001' }), { vendor: 'acme-pos', store: 'till-001', secret });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().status).toBe('processed');
    await go('Deliveries');
    await page.getByLabel('Store').fill('till-001');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/store=till-001/);
    const row = page.getByRole('row').filter({ hasText: 'FIRST-SALE' });
    expect(await row.getByRole('cell', { name: 'processed' }).isVisible()).toBe(true);
    await shoot('6-deliveries');
    await row.getByRole('link').first().click();
    await page.waitForURL(/\/console\/deliveries\//);
    expect(await page.getByText('HTTP 200 processed', { exact: true }).isVisible()).toBe(true);
    await shoot('7-delivery');
  });

  it("rotates the secret with an hour's overlap (the old one still verifies), deactivates and activates the connection", async () => {
    await go('Connections');
    const row = page.getByRole('row').filter({ hasText: 'till-001' });
    await row.getByRole('button', { name: 'Copy the connection id of acme-pos/till-001' }).click();
    await expect.poll(clipboard).toBe(connectionId);
    await shoot('8-connections');
    await row.getByRole('link', { name: 'Rotate the secret of acme-pos/till-001' }).click();
    await page.getByLabel('Previous secrets stay valid for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('New secret');
    const rotated = (await page.locator('#secret').textContent())!;
    expect(rotated).not.toBe(secret);
    const validUntil = Date.parse(((await page.getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/).textContent()) ?? '').replace(' ', 'T'));
    expect(Math.abs(validUntil - Date.now() - 3_600_000)).toBeLessThan(60_000);
    for (const [id, key] of [
      ['OLD-SECRET', secret],
      ['NEW-SECRET', rotated],
    ] as const) {
      expect((await send(sale({ id, store: 'till-001' }), { vendor: 'acme-pos', store: 'till-001', secret: key })).statusCode, id).toBe(
        200,
      );
    }
    await go('Connections');
    await page.getByRole('button', { name: 'Deactivate acme-pos/till-001' }).click();
    await expect.poll(notice).toBe('Connection acme-pos/till-001 deactivated.');
    expect((await t.store.getConnection(connectionId))?.active).toBe(false);
    await page.getByRole('button', { name: 'Activate acme-pos/till-001' }).click();
    await expect.poll(notice).toBe('Connection acme-pos/till-001 activated.');
  });

  it('promotes Shopify: refused without settings, set through the generated form (the secret write-only), then promoted', async () => {
    await go('Vendors');
    await page.getByRole('link', { name: 'Promote Shopify' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Promote Shopify?');
    expect(await page.getByText('no provider settings yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Promote Shopify (0 stores)' }).click();
    await expect.poll(alert).toContain('Shopify cannot be promoted until its provider settings fit its adapter');

    await page.getByRole('link', { name: 'Provider settings of Shopify' }).click();
    await page.waitForURL(/\/console\/vendors\/shopify\/settings$/);
    // The form is the adapter's settings schema: its titles, a password input for the secret, a checkbox for the flag.
    const appSecret = page.getByLabel('App client secret');
    expect(await appSecret.getAttribute('type')).toBe('password');
    expect(await page.getByLabel('Admin API version').getAttribute('placeholder')).toBe('2026-07');
    expect(await page.getByLabel('Gateway-managed subscriptions').isChecked()).toBe(false);
    await page.getByLabel('Admin API version').fill('2026-13');
    await appSecret.fill('shpss_console_secret_value');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(alert).toContain('apiVersion must be a Shopify API version such as 2026-07');
    expect(await page.content()).not.toContain('shpss_console_secret_value'); // never echoed, not even refused
    expect(await page.getByLabel('Admin API version').inputValue()).toBe('2026-13');
    expect((await t.store.getVendor('shopify'))?.settings ?? null).toBeNull();
    await shoot('9-settings-refused');
    await page.getByLabel('Admin API version').fill('2026-04');
    await page.getByLabel('App client secret').fill('shpss_console_secret_value');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(notice).toBe("Shopify's provider settings are saved: it can be promoted now.");
    expect((await t.store.getVendor('shopify'))?.settings).toEqual({
      appSecret: 'shpss_console_secret_value',
      apiVersion: '2026-04',
      managedSubscriptions: false,
    });

    // Again: the secret's input is empty and says it is set; saving without it keeps it.
    await page.getByRole('link', { name: 'Provider settings of Shopify' }).click();
    expect(await page.getByLabel('App client secret').inputValue()).toBe('');
    expect(await page.getByText(/Set: leave empty to keep it/).isVisible()).toBe(true);
    expect(await page.content()).not.toContain('shpss_console_secret_value');
    await page.getByLabel('Gateway-managed subscriptions').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(notice).toContain('saved');
    expect((await t.store.getVendor('shopify'))?.settings).toEqual({
      appSecret: 'shpss_console_secret_value',
      apiVersion: '2026-04',
      managedSubscriptions: true,
    });
    await page.getByRole('link', { name: 'Provider settings of Shopify' }).click();
    await page.getByLabel('Gateway-managed subscriptions').uncheck();
    await shoot('10-settings');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(notice).toContain('saved');

    await page.getByRole('link', { name: 'Promote Shopify' }).click();
    await shoot('11-promote-confirm');
    await page.getByRole('button', { name: 'Promote Shopify (0 stores)' }).click();
    await expect.poll(notice).toBe('Shopify is now featured.');
    expect((await t.store.getVendor('shopify'))?.tier).toBe('featured');
  });

  it("connects a Shopify store with its access token (the adapter's credentials form), then demotes Shopify after the warning", async () => {
    await go('Connections');
    await page.getByLabel('Vendor').selectOption('shopify');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel(/^Shop domain/).fill('Bean-There.example.com');
    const token = page.getByLabel('Admin API access token');
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill('shpat_console_token_value');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await expect.poll(alert).toContain('The store id does not fit the Shopify adapter');
    expect(await page.content()).not.toContain('shpat_console_token_value');
    await shoot('12-connection-refused');
    await page.getByLabel(/^Shop domain/).fill('bean-there.myshopify.com');
    await page.getByLabel('Admin API access token').fill('shpat_console_token_value');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Connection created');
    expect(await page.getByRole('link', { name: /\/directory\/shopify$/ }).isVisible()).toBe(true);
    const [shop] = await t.store.listConnections({ vendor: 'shopify' });
    expect(shop?.storeId).toBe('bean-there.myshopify.com');
    expect(await t.store.getCredentials(shop!.id)).toEqual({ accessToken: 'shpat_console_token_value' });

    await go('Vendors');
    await page.getByRole('link', { name: 'Demote Shopify' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Demote Shopify?');
    expect(await page.getByText(/makes every delivery to POST \/webhooks\/shopify answer 404/).isVisible()).toBe(true);
    expect(await page.getByText(/from all of its 1 store \(1 with an active connection\)/).isVisible()).toBe(true);
    await shoot('13-demote-confirm');
    await page.getByRole('button', { name: 'Demote Shopify (1 store)' }).click();
    await expect.poll(notice).toBe('Shopify is now generic.');
    expect((await t.store.getVendor('shopify'))?.tier).toBe('generic');
    expect((await t.store.getConnection(shop!.id))?.active).toBe(true); // connections stay
  });

  it('had no console errors and no CSP violations on any page', () => {
    expect(problems).toEqual([]);
  });
});
