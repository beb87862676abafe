import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { requestIdTime } from '../../src/journal/journal-ids.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * A caller's X-Request-ID is anyone's to send again: a lookup by it lists every entry carrying it
 * with its connection, and never shows (or replays) an unauthenticated entry in place of an
 * authenticated one.
 */
describe.each(testDialects())("a caller's X-Request-ID cannot stand in for another's ($name)", ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
  });
  afterEach(() => t.close());

  const send = (body: unknown, requestId: string, options: Parameters<typeof headersFor>[1] = {}, remoteAddress = '127.0.0.1') => {
    const raw = bodyOf(body);
    return t.app.inject({
      method: 'POST',
      url: '/webhooks/generic',
      remoteAddress,
      headers: { ...headersFor(raw, options), 'x-request-id': requestId },
      payload: raw,
    });
  };

  it("a delivery sent without X-Request-ID is found and replayed by the id the gateway generated, received at that id's millisecond", async () => {
    fault.down = true;
    const raw = bodyOf(sale({ id: 'RID-GEN' }));
    const failed = await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    expect(failed.statusCode).toBe(500);
    fault.down = false;
    const generated = String(failed.headers['x-request-id']);
    const at = requestIdTime(generated);
    expect(at).toBeTypeOf('number');
    const shown = await t.admin('GET', `/admin/deliveries/${generated}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().delivery).toMatchObject({
      requestId: generated,
      transactionId: 'RID-GEN',
      receivedAt: new Date(at!).toISOString(),
    });
    const listed = await t.admin('GET', `/admin/deliveries?requestId=${generated}`);
    expect((listed.json().deliveries as Array<{ requestId: string }>).map((d) => d.requestId)).toEqual([generated]);
    const replayed = await t.admin('POST', `/admin/deliveries/${generated}/replay`);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json()).toMatchObject({ result: { status: 'processed' } });
  });

  it("an attacker's 401s reusing a vendor's request id: the lookup shows the vendor's delivery, lists all of them with their connection, and the replay replays the vendor's", async () => {
    fault.down = true;
    expect((await send(sale({ id: 'RID-1' }), 'VENDOR-REQ-1')).statusCode).toBe(500);
    fault.down = false;
    // The same store's headers with a wrong signature (the connection resolves, unproven), then an anonymous one.
    expect(
      (await send(sale({ id: 'RID-1' }), 'VENDOR-REQ-1', { secret: 'whsec_not_the_secret_0123456789' }, '203.0.113.66')).statusCode,
    ).toBe(401);
    expect((await send(sale({ id: 'RID-X' }), 'VENDOR-REQ-1', { vendor: 'nobody', store: 'nowhere' }, '203.0.113.67')).statusCode).toBe(
      401,
    );

    const shown = await t.admin('GET', '/admin/deliveries/VENDOR-REQ-1');
    expect(shown.statusCode).toBe(200);
    expect(shown.json().delivery).toMatchObject({ status: 500, transactionId: 'RID-1', authenticated: true });
    const matches = shown.json().matches as Array<Record<string, unknown>>;
    expect(matches.map((m) => [m.status, m.authenticated, m.vendor])).toEqual([
      [401, false, 'nobody'],
      [401, false, 'acme-pos'],
      [500, true, 'acme-pos'],
    ]);
    expect(matches[1]!.connectionId).toBe(shown.json().delivery.connectionId);

    const listed = await t.admin('GET', '/admin/deliveries?requestId=VENDOR-REQ-1');
    expect(listed.statusCode).toBe(200);
    expect((listed.json().deliveries as Array<{ status: number }>).map((d) => d.status)).toEqual([401, 401, 500]);

    const replayed = await t.admin('POST', '/admin/deliveries/VENDOR-REQ-1/replay');
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json()).toMatchObject({ result: { status: 'processed' } });
  });

  it("the same request id on two connections' authenticated deliveries: shown with both listed, never replayed by it (the journal id says which)", async () => {
    await t.store.createConnection({
      vendor: 'acme-pos',
      storeId: 'store-002',
      secret: 'whsec_second_store_0123456789abcdef',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    fault.down = true;
    expect((await send(sale({ id: 'RID-A' }), 'SHARED-1')).statusCode).toBe(500);
    const other = sale({ id: 'RID-B' });
    const body = { ...other, store: { id: 'store-002' } };
    expect((await send(body, 'SHARED-1', { store: 'store-002', secret: 'whsec_second_store_0123456789abcdef' })).statusCode).toBe(500);
    fault.down = false;
    const shown = (await t.admin('GET', '/admin/deliveries/SHARED-1')).json();
    expect(shown.matches).toHaveLength(2);
    expect(new Set(shown.matches.map((m: { connectionId: string }) => m.connectionId)).size).toBe(2);
    const refused = await t.admin('POST', '/admin/deliveries/SHARED-1/replay');
    expect(refused.json()).toMatchObject({
      statusCode: 409,
      code: 'replay_not_available',
      message: expect.stringContaining(shown.matches[0].id),
    });
    const byJournalId = await t.admin('POST', `/admin/deliveries/${shown.matches[1].id}/replay`);
    expect(byJournalId.statusCode).toBe(200);
  });

  it("the console's request id filter lists every delivery carrying it, and its delivery page lists the others", async () => {
    expect((await send(sale({ id: 'RID-C' }), 'CONSOLE-REQ-1')).statusCode).toBe(200);
    expect(
      (await send(sale({ id: 'RID-C' }), 'CONSOLE-REQ-1', { secret: 'whsec_not_the_secret_0123456789' }, '203.0.113.70')).statusCode,
    ).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: FORM, payload: `token=${ADMIN_TOKEN}` });
    const cookie = String(signIn.headers['set-cookie']).split(';', 1)[0]!;
    const list = await t.app.inject({ method: 'GET', url: '/console?requestId=CONSOLE-REQ-1', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    // One row per delivery carrying it: its request id cell links to the delivery's page.
    expect(list.body.match(/<td data-label="Request id"><a [^>]*href="\/console\/deliveries\/[^"]*" title="CONSOLE-REQ-1"/g)).toHaveLength(
      2,
    );
    const page = await t.app.inject({ method: 'GET', url: '/console/deliveries/CONSOLE-REQ-1', headers: { cookie } });
    expect(page.body).toContain('HTTP 200 processed');
    expect(page.body).toContain('Deliveries with this request id');
  });
});
