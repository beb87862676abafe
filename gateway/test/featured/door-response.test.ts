import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';

const SECRET = 'erp-secret-for-site-a-0123456789';
const sign = (body: Buffer) => createHmac('sha256', SECRET).update(body).digest('base64');
const order = (orderId: string) =>
  Buffer.from(JSON.stringify({ orders: [{ storeId: 'site-a', orderId, total: 5, email: MEMBERS.square.email }] }));

let gw: FeaturedGateway;
beforeAll(async () => {
  gw = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    adapters: [
      ...adapters,
      // A vendor that wants a plain-text 202 and its challenge echoed back on the setup call.
      erpTestAdapter({
        slug: 'erp-plain',
        response: {
          accepted: (outcome) => ({ status: 202, contentType: 'text/plain; charset=utf-8', body: `OK ${outcome.results.length}` }),
          handshake: (handshake) => ({ status: 200, body: { challenge: handshake.value } }),
        },
      }),
      erpTestAdapter({ slug: 'erp-silent', response: { accepted: () => ({ status: 204 }) } }),
      erpTestAdapter({ slug: 'erp-buggy', response: { accepted: () => ({ status: 500 as 200 }) } }),
    ],
  });
  for (const slug of ['erp-plain', 'erp-silent', 'erp-buggy']) {
    await gw.store.upsertVendor({ slug, name: slug, tier: 'featured', settings: {} });
    await gw.store.createConnection({ vendor: slug, storeId: 'site-a', secret: SECRET, merchantId: 'm-bean', outletId: 'o-till' });
  }
});
afterAll(() => gw.close());

const post = (slug: string, body: Buffer, signed = true) =>
  gw.app.inject({
    method: 'POST',
    url: `/webhooks/${slug}`,
    payload: body,
    headers: { 'content-type': 'application/json', ...(signed ? { 'x-erp-signature': sign(body) } : {}) },
  });

describe('the answer a vendor expects, declared by its adapter (`response`)', () => {
  it('answers a processed request with the declared status, content type and body', async () => {
    const response = await post('erp-plain', order('P-1'));
    expect(response.statusCode).toBe(202);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('OK 1');
    expect((await post('erp-plain', order('P-1'))).body).toBe('OK 1'); // the duplicate is a success too
  });

  it("echoes the setup call's challenge; errors stay the spec's Error body", async () => {
    const handshake = await post('erp-plain', Buffer.from('{"ping":"challenge-123"}'), false);
    expect(handshake.statusCode).toBe(200);
    expect(handshake.json()).toEqual({ challenge: 'challenge-123' });
    const refused = await post('erp-plain', order('P-2'), false);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
  });

  it('a 204 has no body; an adapter answering a non-2xx status is a bug: 500 (the event still counted once)', async () => {
    const silent = await post('erp-silent', order('S-1'));
    expect(silent.statusCode).toBe(204);
    expect(silent.body).toBe('');
    const buggy = await post('erp-buggy', order('B-1'));
    expect(buggy.statusCode).toBe(500);
    expect(buggy.json()).toMatchObject({ code: 'internal_error' });
  });

  it("adapters that declare nothing keep today's JSON", async () => {
    const ping = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      payload: '{"verificationCode":"abc"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ping.json()).toEqual({ status: 'handshake', note: expect.stringContaining('verification code') });
  });
});
