import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloverItemsServer, type CloverItemsServer } from '../../src/testing/clover-items-server.js';
import { openOperatorApp, operatorSeed, type OperatorApp } from '../../src/testing/open-operator-app.js';

const MERCHANT = 'CLOVERMERCHANT1';

describe.each(testDialects())('admin API: catalog runs ($name)', ({ name }) => {
  let t: OperatorApp;
  let server: CloverItemsServer;
  let connectionId: string;
  beforeEach(async () => {
    server = await startCloverItemsServer(MERCHANT, 42);
    t = await openOperatorApp({ dialect: name, seedDocument: operatorSeed({ cloverApiBaseUrl: server.baseUrl }) });
    const created = await t.admin('POST', '/admin/connections', {
      vendor: 'clover',
      storeId: MERCHANT,
      merchantId: 'm-bean',
      outletId: 'o-uptown',
      credentials: { accessToken: 'tok' },
    });
    connectionId = (created.json() as { connection: { id: string } }).connection.id;
  });
  afterEach(async () => {
    await t.close();
    await server.close();
  });

  const runs = async (query = '') =>
    ((await t.admin('GET', `/admin/catalog-runs${query}`)).json() as { runs: Array<Record<string, unknown>> }).runs;

  it('a manual trigger answers 202 with the running run; a second one meanwhile is 409; the row records the outcome', async () => {
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover', connectionId })).json()).toMatchObject({
      statusCode: 409,
      code: 'catalog_not_available',
      message: expect.stringContaining('not featured'),
    });
    await t.admin('POST', '/admin/vendors/clover/promote');
    server.script(0, { status: 429, headers: { 'retry-after': '1' } });

    const accepted = await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover', connectionId });
    expect(accepted.statusCode).toBe(202);
    const { run } = accepted.json() as { run: { id: string } };
    expect(accepted.json()).toMatchObject({
      run: { vendor: 'clover', connectionId, trigger: 'manual', status: 'running', finishedAt: null },
    });

    const again = await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover', connectionId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'catalog_run_in_progress', requestId: expect.any(String) });

    let finished: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !finished; i += 1) {
      finished = (await runs(`?connectionId=${connectionId}`)).find((r) => r.id === run.id && r.status !== 'running');
      if (!finished) await new Promise((r) => setTimeout(r, 50));
    }
    expect(finished).toMatchObject({ status: 'succeeded', pages: 1, items: 42, created: 42, attempts: 1, error: null });
    expect(await runs('?vendor=shopify')).toEqual([]);
    expect((await runs('?limit=1')).length).toBe(1);
  });

  it("refuses unknown connections, other vendors' connections and bad bodies with the Error body", async () => {
    await t.admin('POST', '/admin/vendors/clover/promote');
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover', connectionId: 'nope' })).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'shopify', connectionId })).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'ghost', connectionId })).json()).toMatchObject({
      statusCode: 404,
      code: 'vendor_not_found',
    });
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover' })).json()).toMatchObject({
      statusCode: 400,
      code: 'missing_field',
      fields: [{ path: 'connectionId' }],
    });
    await t.admin('POST', `/admin/connections/${connectionId}/deactivate`);
    expect((await t.admin('POST', '/admin/catalog-runs', { vendor: 'clover', connectionId })).json()).toMatchObject({
      statusCode: 409,
      code: 'catalog_not_available',
    });
    expect((await t.admin('GET', '/admin/catalog-runs?limit=0')).json()).toMatchObject({ statusCode: 422, fields: [{ path: 'limit' }] });
    expect(server.asked).toEqual([]);
  });
});
