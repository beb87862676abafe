import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { headersFor, nowSeconds, openGateway, type SendOptions } from '../../src/testing/gateway-fixture.js';
import { OTHER_SECRET, refund, sale, STAMP_REWARD, STORE } from '../../src/testing/test-seed.js';

type Answer = { status: number; body: Record<string, any> };

describe.each(testDialects())('POST /v1/earn/preview on a real socket ($name)', ({ name }) => {
  let t: OperatorApp;
  let address: string;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name, journal: true });
    address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await t.close();
  });

  /** Signs and POSTs `body` (an object is serialised once) to `path` over HTTP. */
  const post = async (path: string, body: unknown, options: SendOptions = {}): Promise<Answer> => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${address}${path}`, { method: 'POST', headers: headersFor(raw, options), body: options.sendBody ?? raw });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const preview = (body: unknown, options?: SendOptions) => post('/v1/earn/preview', body, options);
  const earn = (body: unknown, options?: SendOptions) => post('/webhooks/generic', body, options);
  const balance = () =>
    t.engine
      .eligibility({
        merchantId: 'm-bean',
        outletId: 'o-downtown',
        source: { vendor: 'acme-pos', storeId: STORE },
        customer: { type: 'membershipId', value: 'MBR-0001' },
      })
      .then((r) => r.walletBalance);

  it('answers what the sale would do, commits nothing (no points, no card, no idempotency key), then the sale earns exactly that', async () => {
    const body = sale({ total: 12.5 });
    const expected = {
      status: 'would_process',
      membershipId: 'MBR-0001',
      pointsEarned: 12,
      stampsUpdated: [{ rewardId: STAMP_REWARD, rewardTitle: 'Buy 5 coffees, get one free', current: 2, required: 5, completed: false }],
      warning: null,
    };
    expect(await preview(body)).toEqual({ status: 200, body: expected });
    expect(await preview(body)).toEqual({ status: 200, body: expected });
    expect(await balance()).toBe(1200);
    // Had the preview written the sale's or the event's cache key, this would be a duplicate.
    expect(await earn(body)).toEqual({ status: 200, body: { ...expected, status: 'processed' } });
    expect(await balance()).toBe(1212);
    expect(await preview(body)).toEqual({
      status: 200,
      body: { status: 'would_be_duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null },
    });
    expect(await preview({ ...body, eventId: 'another', transaction: { ...body.transaction, total: 99 } })).toMatchObject({
      status: 200,
      body: { status: 'would_be_duplicate', warning: expect.stringContaining('already received') },
    });
    expect(await balance()).toBe(1212);
  });

  it('journals each preview as a preview: its route and status, never points earned', async () => {
    const body = sale({ total: 30 });
    await preview(body);
    await earn(body);
    await t.journal!.flush();
    const entries = (await t.admin('GET', `/admin/deliveries?transactionId=${body.transaction.id}`)).json().deliveries;
    expect(entries.map((e: any) => [e.route, e.outcome, e.pointsEarned, e.nothingEarned])).toEqual([
      ['/webhooks/generic', 'processed', 30, null],
      ['/v1/earn/preview', 'would_process', null, null],
    ]);
  });

  it('answers walk-ins, voids, refunds and unknown event types as the door would, without previewing what is not a sale', async () => {
    const walkIn = await preview(sale({ customer: null }));
    expect(walkIn.body).toMatchObject({ status: 'would_process', pointsEarned: 0, warning: expect.stringMatching(/^Walk-in sale/) });
    expect((await preview({ ...sale(), eventType: 'sale.voided' })).body.status).toBe('ignored');
    expect((await preview({ ...sale(), eventType: 'sale.parked' })).body).toMatchObject({ status: 'ignored', warning: expect.any(String) });
    const sold = sale({ total: 20 });
    await earn(sold);
    const refunded = await preview(refund(sold.transaction.id, 'R-PREVIEW'));
    expect(refunded.body).toMatchObject({ status: 'not_previewed', pointsEarned: 0 });
    // Nothing was reversed, and the refund id is still free.
    expect(await balance()).toBe(1220);
    expect((await earn(refund(sold.transaction.id, 'R-PREVIEW'))).body).toMatchObject({ status: 'processed', pointsReversed: 20 });
  });

  it('is refused in the same ways as the earn: signature, clock, connection, store, validation (same status, code and fields)', async () => {
    const body = sale();
    const cases: Array<[string, unknown, SendOptions]> = [
      ['bad signature', body, { secret: OTHER_SECRET }],
      ['no signature', body, { signature: null }],
      ['stale timestamp', body, { timestamp: nowSeconds() - 301 }],
      ['unknown connection', body, { store: 'store-nobody' }],
      ['inactive connection', { ...body, store: { id: 'store-closed' } }, { store: 'store-closed' }],
      ['store mismatch', { ...body, store: { id: 'store-other' } }, {}],
      ['unknown field', { ...body, transaction: { ...body.transaction, tip: 1 } }, {}],
      ['missing field', { ...body, transaction: { ...body.transaction, currency: undefined } }, {}],
      ['bad money', { ...body, transaction: { ...body.transaction, total: 10.005 } }, {}],
      ['malformed JSON', '{"eventId": ', {}],
      ['not JSON', body, { contentType: 'text/plain' }],
    ];
    for (const [what, request, options] of cases) {
      const previewed = await preview(request, options);
      const earned = await earn(request, options);
      const { requestId: _p, ...previewError } = previewed.body;
      const { requestId: _e, ...earnError } = earned.body;
      expect({ what, status: previewed.status, error: previewError }).toEqual({ what, status: earned.status, error: earnError });
      expect(previewed.status).toBeGreaterThanOrEqual(400);
    }
    expect(await balance()).toBe(1200);
  });

  it('20 previews and earns of one sale at once: the wallet moves once, every preview says what the sale does or that it is done', async () => {
    const body = sale({ total: 40 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? preview({ ...body, eventId: `p-${i}` }) : earn({ ...body, eventId: `e-${i}` }))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const earns = answers.filter((_, i) => i % 2 === 1).map((a) => a.body);
    const previews = answers.filter((_, i) => i % 2 === 0).map((a) => a.body);
    expect(earns.filter((a) => a.status === 'processed')).toHaveLength(1);
    expect(earns.filter((a) => a.status === 'duplicate')).toHaveLength(9);
    for (const p of previews)
      expect([p.status, p.pointsEarned]).toEqual(p.status === 'would_process' ? ['would_process', 40] : ['would_be_duplicate', 0]);
    expect(await balance()).toBe(1240);
    // The card moved once, by the one earn: 2 lattes.
    const next = await earn(sale({ total: 1 }));
    expect(next.body.stampsUpdated[0]).toMatchObject({ current: 4 });
  });
});

describe('the preview has a rate-limit budget of its own', () => {
  it('previews past their budget are 429 while sales go on, and sales past theirs do not stop previews', async () => {
    const gw = await openGateway({ rateLimit: { max: 3, preview: 2 } });
    try {
      const address = await gw.app.listen({ host: '127.0.0.1', port: 0 });
      const call = async (path: string) => {
        const raw = JSON.stringify(sale());
        return (await fetch(`${address}${path}`, { method: 'POST', headers: headersFor(raw), body: raw })).status;
      };
      const calls = async (path: string, n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++) statuses.push(await call(path));
        return statuses;
      };
      expect(await calls('/webhooks/generic', 4)).toEqual([200, 200, 200, 429]);
      expect(await calls('/v1/earn/preview', 3)).toEqual([200, 200, 429]);
    } finally {
      await gw.close();
    }
  });
});
