import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../testing/open-operator-app.js';
import { bodyOf, headersFor } from '../testing/gateway-fixture.js';
import { sale } from '../testing/test-seed.js';

describe.each(testDialects())('the delivery journal: inspector and audited replay ($name)', ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
  });
  afterEach(async () => {
    await t.close();
  });

  const send = (body: unknown, options: Parameters<typeof headersFor>[1] = {}) => {
    const raw = bodyOf(body);
    return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw, options), payload: raw });
  };
  const deliveries = async (query = '') => {
    await t.journal!.flush();
    return (await t.admin('GET', `/admin/deliveries${query}`)).json() as {
      deliveries: Array<Record<string, any>>;
      nextCursor: string | null;
    };
  };

  it('records every request, accepted or refused, with what support asks first; filters and a cursor find them', async () => {
    const paid = sale({ id: 'J-1' });
    expect((await send(paid)).statusCode).toBe(200);
    expect((await send(paid, { secret: 'whsec_wrong_secret_0123456789abcdef' })).statusCode).toBe(401);
    const invalid = await send({ ...paid, transaction: { ...paid.transaction, id: 'J-2', total: -1 } });
    expect(invalid.statusCode).toBe(422);

    const { deliveries: all } = await deliveries();
    expect(all.map((d) => [d.status, d.outcome])).toEqual([
      [422, 'validation_failed'],
      [401, 'bad_signature'],
      [200, 'processed'],
    ]);
    expect(all[2]).toMatchObject({
      route: '/webhooks/generic',
      vendor: 'acme-pos',
      storeId: 'store-001',
      connectionId: expect.any(String),
      eventType: 'sale.completed',
      transactionId: 'J-1',
      requestKept: false,
    });
    expect(all[2]!.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.abs(all[2]!.skewSeconds)).toBeLessThanOrEqual(2);
    expect(all[0]!.fields).toEqual([{ path: 'transaction.total', message: expect.any(String) }]);
    expect(all[1]).toMatchObject({ vendor: 'acme-pos', storeId: 'store-001', connectionId: all[2]!.connectionId }); // the connection it named
    const refusedStory = (await t.admin('GET', `/admin/deliveries/${all[1]!.id}`)).json().story;
    expect(refusedStory.find((s: { step: string }) => s.step === 'signature').outcome).toMatch(/^refused/);

    expect((await deliveries('?status=401')).deliveries.map((d) => d.outcome)).toEqual(['bad_signature']);
    expect((await deliveries('?transactionId=J-1')).deliveries.map((d) => d.outcome)).toEqual(['processed']); // a refused request is never parsed: found by store, status or code
    const first = await deliveries('?limit=2');
    expect(first.deliveries).toHaveLength(2);
    expect((await deliveries(`?limit=2&cursor=${first.nextCursor}`)).deliveries.map((d) => d.outcome)).toEqual(['processed']);
    const bad = await t.admin('GET', '/admin/deliveries?status=abc&colour=red');
    expect(bad.statusCode).toBe(422);
  });

  it('a delivery the engine failed (500) is kept sealed, told as a story, and replayed once the engine is back: earned once, audited', async () => {
    fault.down = true;
    const failed = await send(sale({ id: 'J-500' }));
    expect(failed.statusCode).toBe(500);
    const [entry] = (await deliveries('?status=500')).deliveries;
    expect(entry).toMatchObject({ outcome: 'engine_unavailable_retry', requestKept: true, transactionId: 'J-500' });
    const requestId = failed.headers['x-request-id'] as string;
    const shown = (await t.admin('GET', `/admin/deliveries/${requestId}`)).json();
    expect(shown.delivery.id).toBe(entry!.id);
    expect(shown.story.map((s: { step: string }) => s.step)).toEqual(['connection', 'timestamp', 'signature', 'ledger', 'cause', 'answer']);
    expect(shown.story.at(-3).outcome).toContain('engine_unavailable_retry');
    expect(shown.story.at(-2).outcome).toMatch(/^engine earn: unavailable: /);
    expect(shown).toMatchObject({ replayable: true, delivery: { recoveredBy: null } });

    // Still down: the replay fails too, and is journalled as such.
    expect((await t.admin('POST', `/admin/deliveries/${entry!.id}/replay`)).statusCode).toBe(500);
    fault.down = false;
    const before = await t.engine.eligibility({
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      source: { vendor: 'acme-pos', storeId: 'store-001' },
      customer: { type: 'membershipId', value: 'MBR-0001' },
    });
    const replayed = await t.admin('POST', `/admin/deliveries/${requestId}/replay`);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json()).toMatchObject({
      replay: { replayOf: entry!.id, replayedBy: expect.stringMatching(/^admin:[0-9a-f]{12}$/) },
      result: { status: 'processed' },
    });
    const after = await t.engine.eligibility({
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      source: { vendor: 'acme-pos', storeId: 'store-001' },
      customer: { type: 'membershipId', value: 'MBR-0001' },
    });
    expect(after.walletBalance).toBeGreaterThan(before.walletBalance);
    // The ledger's keys still decide: a second replay is a duplicate and earns nothing.
    expect((await t.admin('POST', `/admin/deliveries/${entry!.id}/replay`)).json().result).toMatchObject({
      status: 'duplicate',
      pointsEarned: 0,
    });
    const story = (await t.admin('GET', `/admin/deliveries/${entry!.id}`)).json();
    // Recovered by the replay that answered: it says so, links it, and offers no Replay.
    const answered = story.replays.find((r: { status: number }) => r.status === 200);
    expect(story).toMatchObject({ replayable: false, delivery: { recoveredBy: answered.id } });
    expect(story.story.at(-1)).toEqual({
      step: 'recovered',
      outcome: expect.stringContaining(`by replay ${answered.id as string} (HTTP 200 processed`),
    });
    expect((await deliveries('?status=500')).deliveries.map((d) => d.recoveredBy)).toEqual([null, answered.id]); // the failed replay, the original
    // The replay that failed while the engine was still down is recovered with it.
    const failedReplay = story.replays.find((r: { status: number }) => r.status === 500);
    expect((await t.admin('GET', `/admin/deliveries/${failedReplay.id as string}`)).json()).toMatchObject({
      replayable: false,
      delivery: { recoveredBy: answered.id },
    });
    expect(story.replays.map((r: { status: number; outcome: string; replayOf: string }) => [r.status, r.outcome, r.replayOf])).toEqual([
      [500, 'engine_unavailable_retry', entry!.id],
      [200, 'processed', entry!.id],
      [200, 'duplicate', entry!.id],
    ]);
  });

  it('only failures on our side are replayed; unknown ids are 404', async () => {
    const ok = await send(sale({ id: 'J-OK' }));
    const refused = await t.admin('POST', `/admin/deliveries/${ok.headers['x-request-id'] as string}/replay`);
    expect(refused.json()).toMatchObject({ statusCode: 409, code: 'replay_not_available', message: expect.stringContaining('HTTP 200') });
    expect((await t.admin('GET', '/admin/deliveries/nope')).json()).toMatchObject({ statusCode: 404, code: 'delivery_not_found' });
    expect((await t.admin('POST', '/admin/deliveries/nope/replay')).json()).toMatchObject({ statusCode: 404, code: 'delivery_not_found' });
  });
});
