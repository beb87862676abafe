import { mutatedJson } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANN, SCOPE, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';
import { createEngineServer } from './create-engine-server.js';

/** Generated commands per dialect (FUZZ_RUNS); FUZZ_SEED=N explores others. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);

let n = 0;
/** A valid command of each write and read, with ids of its own each time (so each can be applied). */
function commands(): Array<[string, unknown]> {
  n += 1;
  return [
    [
      '/v1/earn',
      sale({
        id: `tx-fz-${n}`,
        items: [{ id: 'p1', name: 'Latte', sku: 'L', quantity: 2, unitPriceMinor: 450 }],
        discountCodes: [{ code: 'X', amountMinor: 100 }],
      }),
    ],
    [
      '/v1/reverse',
      {
        ...SCOPE,
        transactionId: `tx-fz-${n}`,
        refundId: `r-fz-${n}`,
        amountMinor: 100,
        currency: 'USD',
        occurredAt: '2026-01-15T10:00:00Z',
      },
    ],
    ['/v1/withdraw-refunds', { ...SCOPE, transactionId: `tx-fz-${n}`, keep: [`r-fz-${n}`], asOf: '2026-01-15T11:00:00Z' }],
    ['/v1/eligibility', { ...SCOPE, customer: ANN, orderValueMinor: 2500 }],
    ['/v1/redeem', { ...SCOPE, customer: ANN, externalTransactionId: `o-fz-${n}`, pointsToRedeem: 10 }],
    [
      '/v1/catalog-sync',
      { ...SCOPE, items: [{ externalId: 'p1', name: 'Latte', sku: 'L', category: 'c', priceMinor: 450, isActive: true }] },
    ],
  ];
}

describe.each(testDialects())('the engine service under generated commands ($name)', ({ name }) => {
  let t: TestEngine;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await openSeededEngine(name);
    app = createEngineServer({ engine: t.engine });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });
  const post = (url: string, body: unknown) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) ?? 'null' });
  const rows = async () =>
    Number(
      (await sql<{ n: number }>`select (select count(*) from sales) + (select count(*) from ledger_entries) as n`.execute(t.db)).rows[0]!.n,
    );

  // Text no database stores as sent: PostgreSQL refuses NUL (the engine answered 500), and both
  // drivers store an unpaired surrogate as U+FFFD (SQLite kept a NUL), so two ids could become one.
  it('text with NUL or an unpaired surrogate is 400 invalid_command naming the field, and nothing is written', async () => {
    const [[, earn]] = commands() as [[string, ReturnType<typeof sale>]];
    const before = await rows();
    for (const [path, value] of [
      ['eventId', 'evt\u0000'],
      ['transaction.id', 'tx\ud800'],
      ['transaction.items.0.name', 'Latte\u0000'],
      ['source.storeId', '\udc00'],
    ] as const) {
      const body = structuredClone(earn) as unknown as Record<string, unknown>;
      const steps = path.split('.');
      let parent = body as Record<string, unknown>;
      for (const step of steps.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
      parent[steps.at(-1)!] = value;
      const reply = await post('/v1/earn', body);
      expect([reply.statusCode, reply.json().code], reply.body).toEqual([400, 'invalid_command']);
      // fields name the path as the gateway's errors do (`items[0]`).
      const named = path.replace(/\.(\d+)\./g, '[$1].');
      expect(reply.json().fields).toContainEqual({ path: named, message: 'must not contain NUL characters or unpaired surrogates' });
    }
    expect(await rows()).toBe(before);
  });

  it(`${RUNS} commands with a few values changed: no 5xx but an unknown merchant or outlet (internal_error, as the embedded engine), every refusal {code, message}`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...commands().keys()).chain((index) => {
          const [path, body] = commands()[index]!;
          return mutatedJson(body).map((changed) => [path, changed] as const);
        }),
        async ([path, body]) => {
          const reply = await post(path, body);
          if (reply.statusCode < 300) return;
          const error = reply.json() as { code: string; message: string };
          expect(typeof error.code).toBe('string');
          expect(typeof error.message).toBe('string');
          if (reply.statusCode >= 500) expect(error.message, reply.body).toMatch(/^The loyalty engine has no (merchant|outlet) /);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);
});
