import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterFixtureJson } from '../../src/testing/native-fixtures.js';
import { openOperatorApp, operatorSeed, type OperatorApp } from '../../src/testing/open-operator-app.js';

const MERCHANT = 'XYZVJT2ZRRRSC';
const paidOrder = adapterFixtureJson('clover', 'order-paid.json') as { id: string };

describe.each(testDialects())('admin API: order reconciliation ($name)', ({ name }) => {
  let t: OperatorApp;
  let api: RecordedVendorServer;
  let connectionId: string;
  beforeEach(async () => {
    api = await startRecordedVendorServer();
    api.route(`/v3/merchants/${MERCHANT}/orders`, { body: { elements: [paidOrder] } });
    api.route(`/v3/merchants/${MERCHANT}/orders/${paidOrder.id}`, { body: paidOrder });
    api.route(`/v3/merchants/${MERCHANT}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    t = await openOperatorApp({ dialect: name, seedDocument: operatorSeed({ cloverApiBaseUrl: api.baseUrl }) });
    const created = await t.admin('POST', '/admin/connections', {
      vendor: 'clover',
      storeId: MERCHANT,
      merchantId: 'm-bean',
      outletId: 'o-uptown',
      credentials: { accessToken: 'tok' },
    });
    expect(created.statusCode).toBe(201);
    connectionId = (created.json() as { connection: { id: string } }).connection.id;
  });
  afterEach(async () => {
    await t.close();
    await api.close();
  });

  it('a manual run is refused until the vendor is featured, then recovers the missed sale; a second run finds it a duplicate', async () => {
    const refused = await t.admin('POST', `/admin/connections/${connectionId}/reconcile`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'reconcile_not_available', message: expect.stringContaining('not featured') });
    expect(api.seen).toHaveLength(0);

    await t.admin('POST', '/admin/vendors/clover/promote');
    const first = await t.admin('POST', `/admin/connections/${connectionId}/reconcile`);
    expect(first.statusCode).toBe(200);
    expect(first.json().run).toMatchObject({
      vendor: 'clover',
      connectionId,
      trigger: 'manual',
      status: 'succeeded',
      found: 1,
      recovered: 1,
      duplicates: 0,
      failed: 0,
    });
    const second = await t.admin('POST', `/admin/connections/${connectionId}/reconcile`);
    expect(second.json().run).toMatchObject({ status: 'succeeded', recovered: 0, duplicates: 1 });

    const listed = await t.admin('GET', `/admin/reconcile-runs?connectionId=${connectionId}`);
    expect(listed.json().runs.map((r: { recovered: number }) => r.recovered)).toEqual([0, 1]);
    expect(t.logs.some((line) => line.includes('reconciliation recovered events the webhook never delivered'))).toBe(true);
  });

  it('a schedule tick runs each featured connection once per slot, however many processes tick', async () => {
    await t.admin('POST', '/admin/vendors/clover/promote');
    const [a, b] = await Promise.all([
      t.reconciler.runTick('clover', '2026-11-25T03:00:00.000Z'),
      t.reconciler.runTick('clover', '2026-11-25T03:00:00.000Z'),
    ]);
    expect([...a, ...b]).toHaveLength(1);
    expect([...a, ...b][0]).toMatchObject({ trigger: 'schedule', slot: '2026-11-25T03:00:00.000Z', recovered: 1 });
    expect(await t.reconciler.runTick('shopify', '2026-11-25T03:00:00.000Z')).toEqual([]); // no reconciliation pull declared
  });

  it('bad input: an unknown connection is 404, a bad query is 422 with fields (as every admin query), no token is 401', async () => {
    expect((await t.admin('POST', '/admin/connections/nope/reconcile')).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
    const bad = await t.admin('GET', '/admin/reconcile-runs?limit=0&colour=red');
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['colour', 'limit']);
    expect((await t.admin('GET', '/admin/reconcile-runs', undefined, null)).statusCode).toBe(401);
  });
});
