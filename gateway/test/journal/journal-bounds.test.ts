import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openOperatorApp } from '../../src/testing/open-operator-app.js';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';
import { gatewayMigrations } from '../../src/stores/gateway-migrations.js';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { createDeliveryJournal, type DeliveryInput } from '../../src/journal/delivery-journal.js';

const refusal = (n: number, at: Date, overrides: Partial<DeliveryInput> = {}): DeliveryInput => ({
  requestId: `anon-${n}`,
  receivedAt: at,
  method: 'POST',
  route: '/webhooks/generic',
  vendor: `random-${n}`,
  storeId: `store-${n}`,
  status: 401,
  outcome: 'unknown_connection',
  durationMs: 1,
  clientAddress: '203.0.113.9',
  ...overrides,
});

const rows = async (database: { db: any }) =>
  Number((await sql<{ n: number | string }>`select count(*) as n from gw_deliveries`.execute(database.db)).rows[0]!.n);

describe.each(testDialects())('the journal is bounded whatever anonymous clients send ($name)', ({ name }) => {
  it('refusals with no connection are one row per client address and minute: a count, the first and the last request id', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const minute = Date.UTC(2026, 10, 28, 10, 0, 0);
      for (let n = 0; n < 400; n += 1) {
        journal.record(refusal(n, new Date(minute + n * 100), n >= 120 ? { status: 429, outcome: 'rate_limited' } : {}));
        if (n % 97 === 0) await journal.flush(); // counted across batches too
      }
      journal.record(refusal(400, new Date(minute + 61_000)));
      journal.record(refusal(401, new Date(minute + 1_000), { clientAddress: '198.51.100.1' }));
      await journal.flush();
      expect(await rows(database)).toBe(3);
      const { deliveries } = await journal.list({ limit: 10 });
      const first = deliveries.find((d) => d.requestId === 'anon-0')!;
      expect(first).toMatchObject({ clientAddress: '203.0.113.9', refusals: 400, lastRequestId: 'anon-399', status: 401 });
      expect(deliveries.find((d) => d.requestId === 'anon-400')).toMatchObject({ refusals: 1, lastRequestId: null });
      expect(deliveries.find((d) => d.requestId === 'anon-401')).toMatchObject({ clientAddress: '198.51.100.1', refusals: 1 });
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('refusals of a connection, and anything accepted, stay one row each', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const at = Date.UTC(2026, 10, 28, 10, 0, 0);
      for (let n = 0; n < 5; n += 1) journal.record(refusal(n, new Date(at + n), { connectionId: 'c-1', outcome: 'bad_signature' }));
      for (let n = 5; n < 10; n += 1) journal.record(refusal(n, new Date(at + n), { status: 200, outcome: 'handshake' }));
      await journal.flush();
      expect(await rows(database)).toBe(10);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it("every stored text has a cap: a validation error's fields and a warning are clipped, and say so", async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const fields = Array.from({ length: 20_000 }, (_, i) => ({ path: `unknown_key_${i}_${'k'.repeat(40)}`, message: 'unknown field' }));
      fields.unshift({ path: `p${'x'.repeat(5_000)}`, message: `m${'y'.repeat(5_000)}` });
      journal.record({
        requestId: 'big-422',
        receivedAt: new Date(),
        method: 'POST',
        route: `/webhooks/generic`,
        connectionId: 'c-1',
        vendor: `v${'v'.repeat(1_000)}`,
        status: 422,
        outcome: 'validation_failed',
        warning: 'w'.repeat(50_000),
        fields,
        durationMs: 2,
      });
      await journal.flush();
      const stored = (
        await sql<{ fields: string; warning: string; vendor: string }>`select fields, warning, vendor from gw_deliveries`.execute(
          database.db,
        )
      ).rows[0]!;
      expect(stored.fields.length).toBeLessThanOrEqual(8_192);
      expect(stored.warning.length).toBeLessThanOrEqual(1_000);
      expect(stored.warning).toMatch(/\[clipped\]$/);
      expect(stored.vendor.length).toBeLessThanOrEqual(255);
      expect(stored.vendor).toMatch(/\[clipped\]$/);
      const shown = (await journal.get('big-422'))!;
      expect(shown.fields![0]!.path.length).toBeLessThanOrEqual(200);
      expect(shown.fields![0]!.path).toMatch(/\[clipped\]$/);
      expect(shown.fields![0]!.message).toMatch(/\[clipped\]$/);
      expect(shown.fields!.at(-1)).toEqual({ path: '[clipped]', message: expect.stringMatching(/^\d+ more fields not kept$/) });
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('a byte budget for the whole journal: past it the oldest entries go first, before their days are up, and a metric counts them', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const now = new Date('2026-11-28T12:00:00Z');
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      maxBytes: 100_000,
      now: () => now,
    });
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    metrics.watchJournal(journal);
    try {
      // 300 entries of ~1 KB over the last five hours, newest last.
      for (let n = 0; n < 300; n += 1)
        journal.record({
          requestId: `r-${n}`,
          receivedAt: new Date(now.getTime() - (300 - n) * 60_000),
          method: 'POST',
          route: '/webhooks/generic',
          connectionId: `c-${n % 7}`,
          status: 200,
          outcome: 'processed',
          warning: 'w'.repeat(900),
          durationMs: 1,
        });
      // Writing a tenth of the budget checks it at once (no waiting for the hourly pruning).
      await journal.flush();
      await journal.prune();
      const removed = journal.backlog().prunedEarly;
      expect(removed).toBeGreaterThan(150);
      const left = (await journal.list({ limit: 500 })).deliveries.map((d) => Number(d.requestId.slice(2)));
      expect(left.length).toBeGreaterThan(50);
      expect(left.length).toBe(300 - removed);
      // The newest kept, the oldest gone: what is left is one run up to the newest entry.
      expect(Math.min(...left)).toBe(300 - left.length);
      const bytes = (await sql<{ b: number | string }>`select sum(size_bytes) as b from gw_deliveries`.execute(database.db)).rows[0]!.b;
      expect(Number(bytes)).toBeLessThanOrEqual(100_000);
      const text = (await metrics.render()).body;
      expect(text).toMatch(new RegExp(`^gateway_journal_pruned_early_total ${removed}$`, 'm'));
      // Within the budget, nothing more goes.
      expect(await journal.prune()).toBe(0);
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

describe.each(testDialects())(
  'measured on the app: what anonymous clients and oversized refusals leave in the journal ($name)',
  ({ name }) => {
    it('400 anonymous bad-signature requests from one client leave at most two rows (one per minute they span), the 429s included', async () => {
      const t = await openOperatorApp({ dialect: name, journal: true, refusalLimit: { max: 120 } });
      try {
        const statuses = new Map<number, number>();
        for (let n = 0; n < 400; n += 1) {
          const body = JSON.stringify(sale({ id: `ANON-${n}` }));
          const response = await t.app.inject({
            method: 'POST',
            url: '/webhooks/generic',
            remoteAddress: '203.0.113.50',
            payload: body,
            headers: { ...headersFor(body, { vendor: `vendor-${n}`, store: `store-${n}` }), 'x-service-signature': 'v1=AAAA' },
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        }
        expect(statuses).toEqual(
          new Map([
            [401, 120],
            [429, 280],
          ]),
        );
        await t.journal!.flush();
        const count = await rows(t.database);
        expect(count).toBeGreaterThanOrEqual(1);
        expect(count).toBeLessThanOrEqual(2);
        const { deliveries } = await t.journal!.list({ limit: 10 });
        expect(deliveries.reduce((sum, d) => sum + d.refusals, 0)).toBe(400);
        expect(deliveries[0]).toMatchObject({ clientAddress: '203.0.113.50', connectionId: null });
      } finally {
        await t.close();
      }
    });

    it('a signed 1 MB body with many unknown keys is refused 422 naming them, and the journal keeps a clipped `fields`', async () => {
      const t = await openOperatorApp({ dialect: name, journal: true });
      try {
        const envelope: Record<string, unknown> = { ...sale({ id: 'BIG-1' }) };
        for (let n = 0; n < 20_000; n += 1) envelope[`unknown_${n}_${'k'.repeat(30)}`] = n;
        const body = JSON.stringify(envelope);
        expect(body.length).toBeGreaterThan(1_000_000);
        expect(body.length).toBeLessThanOrEqual(1_048_576);
        const response = await t.app.inject({ method: 'POST', url: '/webhooks/generic', payload: body, headers: headersFor(body) });
        expect(response.statusCode).toBe(422);
        await t.journal!.flush();
        const stored = (await sql<{ fields: string }>`select fields from gw_deliveries`.execute(t.database.db)).rows[0]!;
        expect(stored.fields.length).toBeLessThanOrEqual(8_192);
        const fields = JSON.parse(stored.fields) as Array<{ path: string; message: string }>;
        expect(fields.at(-1)).toEqual({ path: '[clipped]', message: expect.stringMatching(/^\d+ more fields not kept$/) });
      } finally {
        await t.close();
      }
    });
  },
);
