import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAdapter } from '../adapter/define-adapter.js';
import type { ResponseSpec } from '../adapter/vendor-answer.js';
import { adapterKit } from './adapter-kit.js';

const Body = z.looseObject({
  store: z.string(),
  order: z.string().optional(),
  total: z.number().optional(),
  challenge: z.string().optional(),
});

const acme = (response?: ResponseSpec) =>
  defineAdapter({
    slug: 'acme-kit',
    display: { name: 'Acme', description: 'd', category: 'pos', logoSvg: '<svg/>' },
    setup: { storeIdLabel: 'store', steps: [] },
    settings: z.strictObject({ secret: z.string().min(1) }),
    credentials: z.object({}),
    auth: { kind: 'hmac', header: 'x-acme-signature', encoding: 'hex', secret: { from: 'settings', key: 'secret' } },
    native: Body,
    handshake: { auth: 'unsigned', detect: (body) => (body.challenge ? { note: 'setup', value: body.challenge } : null) },
    ...(response ? { response } : {}),
    units: (body) => [{ storeId: body.store, unit: body }],
    map: (body, ctx) => ({
      envelopes: body.order
        ? [
            {
              eventId: `e-${body.order}`,
              eventType: 'sale.completed',
              occurredAt: ctx.now().toISOString(),
              store: { id: ctx.storeId },
              transaction: { id: body.order, total: body.total ?? 1, currency: 'USD', items: [] },
            },
          ]
        : [],
    }),
  });

const sale = JSON.stringify({ store: 's-1', order: 'o-1', total: 12.5 });

describe("adapterKit.post: the door's answers as HTTP statuses", () => {
  const kit = adapterKit(acme(), { settings: { secret: 'k' } });

  it('a bad or missing signature → 401 bad_signature; a signed unreadable body → 400; a signed sale → 200 with its envelope', async () => {
    const bad = kit.signed(sale);
    bad.headers['x-acme-signature'] = '00'.repeat(32);
    expect(await kit.post(bad)).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned(sale))).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned('garbage{'))).toMatchObject({ statusCode: 401 }); // nothing read before auth
    expect(await kit.post(kit.signed('{"store": 5}'))).toMatchObject({ statusCode: 400, code: 'invalid_native_payload' });
    const ok = await kit.post(kit.signed(sale));
    expect(ok).toMatchObject({ statusCode: 200, contentType: 'application/json; charset=utf-8', handshake: null });
    expect(ok.envelopes).toHaveLength(1);
    expect(ok.body).toMatchObject({
      status: 'accepted',
      results: [{ storeId: 's-1', transactionId: 'o-1', status: 'processed' }],
      skipped: [],
      notes: [],
    });
  });

  it('an unsigned handshake the adapter declares → 200 before auth, with the default answer', async () => {
    expect(await kit.post(kit.unsigned('{"store":"s-1","challenge":"c-9"}'))).toMatchObject({
      statusCode: 200,
      handshake: { note: 'setup', value: 'c-9' },
      body: { status: 'handshake', note: 'setup' },
    });
  });

  it('answers what the adapter declares (`response`)', async () => {
    const custom = adapterKit(
      acme({
        accepted: (outcome) => ({ status: 202, body: `OK ${outcome.results.length}` }),
        handshake: (h) => ({ status: 200, contentType: 'application/json', body: { challenge: h.value } }),
      }),
      { settings: { secret: 'k' } },
    );
    expect(await custom.post(custom.signed(sale))).toMatchObject({
      statusCode: 202,
      contentType: 'text/plain; charset=utf-8',
      body: 'OK 1',
    });
    expect(await custom.post(custom.unsigned('{"store":"s","challenge":"c-1"}'))).toMatchObject({
      statusCode: 200,
      contentType: 'application/json',
      body: { challenge: 'c-1' },
    });
  });
});

describe("adapterKit.post runs the door's own per-connection resolution", () => {
  const perConnection = defineAdapter({
    ...acme(),
    slug: 'acme-ts',
    auth: {
      kind: 'hmac',
      header: 'x-acme-signature',
      encoding: 'hex',
      signed: 'timestamp+body',
      timestampHeader: 'x-acme-ts',
      secret: { from: 'connection' },
    },
  });
  const T0 = Date.parse('2026-01-05T10:00:00Z');

  it('a request is judged at one instant: a timestamp the pre-check found fresh is not found stale by the per-store check, so the kit and the door agree', async () => {
    // A clock that moves 400 s each time it is read (the window is 300 s): a kit reading it once per step would find the request stale.
    let reads = 0;
    const kit = adapterKit(perConnection, {
      settings: { secret: 'unused' },
      connectionSecret: 'conn-secret',
      now: () => new Date(T0 + 400_000 * reads++),
    });
    const request = kit.signed(sale, { 'x-acme-ts': String(T0 / 1000) });
    const response = await kit.post(request);
    expect(response).toMatchObject({ statusCode: 200, body: { status: 'accepted', results: [{ storeId: 's-1' }], skipped: [] } });
  });

  it('a wrong connection secret is 401 bad_signature; a stale timestamp is 401 stale_timestamp', async () => {
    const now = () => new Date(T0);
    const kit = adapterKit(perConnection, { settings: { secret: 'unused' }, connectionSecret: 'conn-secret', now });
    const wrong = adapterKit(perConnection, { settings: { secret: 'unused' }, connectionSecret: 'another-secret', now });
    expect(await kit.post(wrong.signed(sale))).toMatchObject({
      statusCode: 401,
      code: 'bad_signature',
      message: 'The vendor signature or token does not match the request.',
    });
    expect(await kit.post(kit.signed(sale, { 'x-acme-ts': String(T0 / 1000 - 301) }))).toMatchObject({
      statusCode: 401,
      code: 'stale_timestamp',
    });
  });
});
