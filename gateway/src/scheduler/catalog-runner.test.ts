import { randomBytes } from 'node:crypto';
import { GatewayError, VENDOR_CALL } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CLOVER_MERCHANT,
  ACCESS_TOKEN,
  catalogOf,
  openProcess,
  seed,
  sharedDatabase,
  type CatalogProcess,
} from '../testing/catalog-world.js';
import { startCloverItemsServer, type CloverItemsServer } from '../testing/clover-items-server.js';

const SLOT = '2025-06-01T03:20:00.000Z';

describe.each(testDialects())('scheduled catalog pulls on $name', ({ name }) => {
  let server: CloverItemsServer;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: CatalogProcess;
  const masterKey = randomBytes(32);
  const connectionId = async () => (await a.store.listConnections({ vendor: 'clover' }))[0]!.id;

  beforeEach(async () => {
    server = await startCloverItemsServer(CLOVER_MERCHANT, 130);
    shared = await sharedDatabase(name);
    a = await openProcess(shared.open(), masterKey);
    await seed(a, server.baseUrl);
  });
  afterEach(async () => {
    await a.runner.stop();
    await shared.close();
    await server.close();
  });

  it('pulls every page through a 429 (Retry-After) and a 503, then syncs the snapshot once', async () => {
    server.script(0, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });
    server.script(100, { status: 503, body: { message: 'Service Unavailable' } });
    const started = Date.now();
    const [run] = await a.runner.runTick('clover', SLOT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // Retry-After: 1 honoured
    expect(run).toMatchObject({
      status: 'succeeded',
      trigger: 'schedule',
      slot: SLOT,
      pages: 2,
      items: 130,
      created: 130,
      updated: 0,
      deactivated: 0,
      error: null,
    });
    expect(server.asked).toEqual([0, 0, 100, 100]);
    expect(new Set(server.authorizations)).toEqual(new Set([`Bearer ${ACCESS_TOKEN}`]));
    const catalog = await catalogOf(a.database);
    expect(catalog).toHaveLength(130);
    expect(catalog[0]).toMatchObject({ external_id: 'ITEM000000000', name: 'Item 0', sku: 'SKU-0', price_minor: 100, is_active: 1 });
    expect(catalog.filter((i) => Number(i.is_active) === 0)).toHaveLength(13); // hidden items arrive inactive
    expect(await a.runs.get(run!.id)).toMatchObject({ status: 'succeeded', items: 130 });
  });

  it("a failing page is asked exactly VENDOR_CALL.maxAttempts times (the HttpClient's budget, nothing on top): the run fails and the next one pulls", async () => {
    // One failure more than a vendor call's budget: a retry on top of it would reach the page.
    server.script(100, ...Array.from({ length: VENDOR_CALL.maxAttempts + 1 }, () => ({ status: 502 })));
    const failed = await a.runner.runCatalogPull('clover', await connectionId());
    expect(failed).toMatchObject({
      status: 'failed',
      pages: 1,
      attempts: 2,
      created: 0,
      error: expect.stringContaining(`page 2 (checkpoint 100) failed after ${VENDOR_CALL.maxAttempts} attempts: HTTP 502`),
    });
    expect(server.asked).toEqual([0, ...Array(VENDOR_CALL.maxAttempts).fill(100)]);
    expect(await catalogOf(a.database)).toHaveLength(0); // a broken pull syncs nothing
    const next = await a.runner.runCatalogPull('clover', await connectionId());
    expect(next).toMatchObject({ status: 'succeeded', pages: 2, items: 130, attempts: 2 });
    expect(server.asked.slice(1 + VENDOR_CALL.maxAttempts)).toEqual([0, 100, 100]); // the last 502, then the page
  });

  it('a Retry-After longer than the runner waits is not retried early: the run fails at once and says why', async () => {
    server.script(
      0,
      { status: 429, headers: { 'retry-after': '120' }, body: { message: 'Too Many Requests' } },
      { status: 429, headers: { 'retry-after': '120' } },
    );
    const started = Date.now();
    const [run] = await a.runner.runTick('clover', SLOT);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run).toMatchObject({ status: 'failed', pages: 0, created: 0 });
    expect(run!.error).toMatch(/retry after 120 s \(Retry-After\), longer than the 30 s a pull waits/);
    expect(server.asked).toEqual([0]); // asked once: neither the client nor the runner came back early
  });

  it('two processes on one tick: exactly one pulls each connection (the run row is the lock)', async () => {
    const b = await openProcess(shared.open(), masterKey);
    const [fromA, fromB] = await Promise.all([a.runner.runTick('clover', SLOT), b.runner.runTick('clover', SLOT)]);
    expect(fromA.length + fromB.length).toBe(1);
    expect(server.asked).toEqual([0, 100]); // the catalog was pulled once
    const runs = await b.runs.list({ vendor: 'clover' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', slot: SLOT, created: 130 });
    // The next tick is a new slot: it runs (nothing changed, so nothing is created or updated).
    const [next] = await b.runner.runTick('clover', '2025-06-02T03:20:00.000Z');
    expect(next).toMatchObject({ status: 'succeeded', created: 0, updated: 0, deactivated: 0 });
    await b.runner.stop();
  });

  it('a pull that breaks halfway records failed and syncs nothing (no item is deactivated)', async () => {
    await a.runner.runTick('clover', SLOT);
    server.setItemCount(120); // 10 items gone: a full pull would deactivate them
    server.script(100, ...Array.from({ length: 9 }, () => ({ status: 500 })));
    const [failed] = await a.runner.runTick('clover', '2025-06-02T03:20:00.000Z');
    expect(failed).toMatchObject({ status: 'failed', pages: 1, items: 100, created: 0, deactivated: 0 });
    expect(failed!.error).toMatch(/HTTP 500/);
    expect(failed!.finishedAt).not.toBeNull();
    const catalog = await catalogOf(a.database);
    expect(catalog.filter((i) => Number(i.is_active) === 1)).toHaveLength(117); // as after the first run
  });

  it('a manual trigger while a run is in progress is refused with catalog_run_in_progress', async () => {
    server.script(0, { status: 429, headers: { 'retry-after': '1' } });
    const id = await connectionId();
    const first = await a.runner.start('clover', id, 'manual');
    const refusal = await a.runner.start('clover', id, 'manual').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'catalog_run_in_progress', statusCode: 409 });
    expect(await first!.done).toMatchObject({ status: 'succeeded' });
  });

  it('pulls only while the vendor is featured and only active connections', async () => {
    await a.store.setVendorTier('clover', 'generic');
    expect(await a.runner.runTick('clover', SLOT)).toEqual([]);
    await expect(a.runner.runCatalogPull('clover', await connectionId())).rejects.toMatchObject({ code: 'catalog_not_available' });
    await a.store.setVendorTier('clover', 'featured');
    await a.store.setConnectionActive(await connectionId(), false);
    expect(await a.runner.runTick('clover', SLOT)).toEqual([]);
    expect(server.asked).toEqual([]);
  });

  it('bad stored credentials fail the run naming the field, never its value', async () => {
    await a.store.setCredentials(await connectionId(), { accessToken: '', extra: 'secret-value-xyz' });
    const run = await a.runner.runCatalogPull('clover', await connectionId());
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/credentials do not fit the adapter \(accessToken: .*extra/);
    expect(run.error).not.toContain('secret-value-xyz');
  });
});
