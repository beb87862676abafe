import { ErrorBody } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

const refused = (response: LightMyRequestResponse, status: number, code: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(ErrorBody.parse(response.json())).toMatchObject({ statusCode: status, code });
};

/**
 * The admin API's path parameters, as the HTTP fuzz of the admin API on real sockets sent them
 * (admin-http-fuzz.test.ts): every id it accepts (up to 255 characters, a caller's X-Request-ID up
 * to 128) reaches its route, and one no id can be is refused by the route's own rule, never a 500.
 * The router refused a parameter over 100 characters with an error the gateway rendered as 500,
 * and a merchant id the id schema refuses threw from the route as a 500.
 */
describe.each(testDialects())('admin API: path parameters ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name, journal: true });
  });
  afterEach(() => t.close());

  it('a merchant id of 255 characters is served through its path (an outlet added to it)', async () => {
    const id = `m-${'x'.repeat(253)}`;
    const merchant = { id, name: 'Long Id Coffee', currency: 'USD', defaultCountryCode: '1', earnRate: 1, redemptionRate: 100 };
    expect((await t.admin('POST', '/admin/merchants', merchant)).statusCode).toBe(201);
    const outlet = await t.admin('POST', `/admin/merchants/${id}/outlets`, { id: 'o-long', name: 'Long outlet' });
    expect(outlet.statusCode, outlet.body).toBe(201);
  });

  it("a delivery is found by a caller's X-Request-ID of 128 characters", async () => {
    const requestId = `r${'7'.repeat(127)}`;
    const raw = bodyOf(sale({ id: 'T-LONG-RID' }));
    const sent = await t.app.inject({
      method: 'POST',
      url: '/webhooks/generic',
      headers: { ...headersFor(raw), 'x-request-id': requestId },
      payload: raw,
    });
    expect(sent.headers['x-request-id']).toBe(requestId);
    const shown = await t.admin('GET', `/admin/deliveries/${requestId}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().delivery).toMatchObject({ requestId, transactionId: 'T-LONG-RID' });
  });

  it('a parameter longer than any id is not found, whatever the route', async () => {
    for (const [method, url] of [
      ['GET', `/admin/vendors/${'a'.repeat(256)}/notes`],
      ['PUT', `/admin/vendors/${'b'.repeat(3_000)}/settings`],
      ['POST', `/admin/connections/${'%41'.repeat(300)}/rotate`],
      ['GET', `/admin/deliveries/${'d'.repeat(256)}`],
    ] as const) {
      const response = await t.admin(method, url, method === 'GET' ? undefined : {});
      expect(response.statusCode, `${method} ${url.slice(0, 40)}: ${response.body}`).toBe(404);
      expect(ErrorBody.parse(response.json()).statusCode).toBe(404);
    }
  });

  it('a journal id or request id holding a NUL character is 422 validation_failed at id, lookup and replay alike (PostgreSQL refused the query: 500)', async () => {
    for (const [method, url] of [
      ['GET', '/admin/deliveries/%00'],
      ['GET', '/admin/deliveries/req%00-1'],
      ['POST', '/admin/deliveries/%00/replay'],
    ] as const) {
      const response = await t.admin(method, url, method === 'POST' ? {} : undefined);
      refused(response, 422, 'validation_failed');
      expect(ErrorBody.parse(response.json()).fields?.map((f) => f.path)).toEqual(['id']);
    }
  });

  it('a merchant id no merchant can have (blank, NUL, a bidi control, 256 characters) is merchant_not_found', async () => {
    for (const id of ['%20', '%09', '%00', '%E2%80%AEnaeb-m', 'm'.repeat(256)]) {
      refused(
        await t.admin('POST', `/admin/merchants/${id}/outlets`, { id: 'o-x', name: 'X' }),
        404,
        id.length > 255 ? 'not_found' : 'merchant_not_found',
      );
    }
  });
});
