import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { escapeHtml } from '../../src/directory/html.js';
import { featuredSeedDocument, MEMBERS, SHOP_DOMAIN } from '../../src/testing/featured-seed.js';
import { adapterFixture } from '../../src/testing/native-fixtures.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const order = adapterFixture('shopify', 'orders-paid.json').toString('utf8');
const headers = `X-Shopify-Topic: orders/paid\nX-Shopify-Shop-Domain: ${SHOP_DOMAIN}`;

/** The vendor page's "try a payload" form, at the route: the admin preview's answer in the page, nothing committed. */
describe.each(testDialects())("the console's try-a-payload form ($name)", ({ name }) => {
  let t: OperatorApp;
  let cookie: string;
  let csrf: string;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name, seedDocument: featuredSeedDocument() });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: FORM,
      payload: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    });
    cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    csrf = /name="_csrf" value="([^"]+)"/.exec((await get('/console/vendors')).body)![1]!;
  });
  afterEach(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, fields: Record<string, string>, withCsrf = true) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie },
      payload: new URLSearchParams({ ...(withCsrf ? { _csrf: csrf } : {}), ...fields }).toString(),
    });
  const balance = () =>
    t.engine
      .eligibility({
        merchantId: 'm-bean',
        outletId: 'o-web',
        source: { vendor: 'shopify', storeId: SHOP_DOMAIN },
        customer: { type: 'membershipId', value: MEMBERS.shopify.membershipId },
      })
      .then((r) => r.walletBalance);

  it("is linked from the vendors page for each adapter, and offers the vendor's stores", async () => {
    expect((await get('/console/vendors')).body).toContain('href="/console/vendors/shopify/try"');
    const page = await get('/console/vendors/shopify/try');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<textarea id="t-payload" name="payload"');
    expect(page.body).toContain(`<option value="${SHOP_DOMAIN}">${SHOP_DOMAIN}</option>`);
    expect((await get('/console/vendors/acme-pos/try')).statusCode).toBe(404);
  });

  it('answers the admin preview in the page (events, what they would do, each envelope), keeps what was typed, commits nothing', async () => {
    const page = await post('/console/vendors/shopify/try', { payload: order, headers, store: SHOP_DOMAIN });
    expect(page.statusCode).toBe(200);
    const admin = (
      await t.admin('POST', '/admin/adapters/shopify/preview', {
        body: order,
        headers: { 'X-Shopify-Topic': 'orders/paid', 'X-Shopify-Shop-Domain': SHOP_DOMAIN },
        store: SHOP_DOMAIN,
      })
    ).json();
    const previewed = admin.units[0].events[0].preview;
    expect(page.body).toContain(`would process: ${previewed.pointsEarned} points for ${MEMBERS.shopify.membershipId}`);
    expect(page.body).toContain('<summary>Envelope 1: sale.completed</summary>');
    expect(page.body).toContain(escapeHtml('"id": "450789469"'));
    // The form keeps the payload and the store chosen.
    expect(page.body).toContain(escapeHtml(order.slice(0, 40)));
    expect(page.body).toContain(`<option value="${SHOP_DOMAIN}" selected>`);
    expect(await balance()).toBe(0);
  });

  it("refuses without the session's CSRF token, and says in the page what the admin API refuses", async () => {
    expect((await post('/console/vendors/shopify/try', { payload: order, headers }, false)).statusCode).toBe(403);
    const badHeader = await post('/console/vendors/shopify/try', { payload: order, headers: 'no colon here' });
    expect(badHeader.statusCode).toBe(422);
    expect(badHeader.body).toContain('Each header line is');
    const unreadable = await post('/console/vendors/shopify/try', { payload: 'not JSON', headers });
    const admin = await t.admin('POST', '/admin/adapters/shopify/preview', { body: 'not JSON', headers: {} });
    expect(unreadable.statusCode).toBe(admin.statusCode);
    expect(unreadable.body).toContain(escapeHtml(admin.json().message as string));
    expect(unreadable.body).toContain('not JSON</textarea>');
  });
});
