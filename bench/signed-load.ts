import { randomUUID } from 'node:crypto';
import { signedHeaders } from '@loyalty-gateway/core';
import autocannon, { type Options, type Result } from 'autocannon';

export const SECRET = 'whsec_bench_secret_value_0123456789';
export const STORE = 'bench-store-1';
/**
 * BENCH_STORES: the stores (connections, each with its own outlet) the sales come from, in turn;
 * one by default, as every target of `npm run bench` measures. An operator's gateway takes sales
 * from hundreds of stores at once, and what is kept per store (the ledger's and the journal's
 * indexes, the caches and counters keyed by connection) then has as many places in use.
 */
export const STORES: readonly string[] = Array.from({ length: Math.max(1, Number(process.env.BENCH_STORES ?? 1)) }, (_, i) =>
  i === 0 ? STORE : `bench-store-${i + 1}`,
);

let counter = 0;
/**
 * A signed sale with a fresh transaction id, for `member` (MBR-BENCH by default). The ids are nearly
 * ordered (`B-<pid>-<ms>-<n>`, the ledger's cheap case); with `randomIds` (by default when
 * BENCH_RANDOM_TRANSACTIONS=1) random UUIDs instead, as Square, Clover and many generic vendors send.
 */
export function signedSale(
  member = 'MBR-BENCH',
  randomIds = Boolean(process.env.BENCH_RANDOM_TRANSACTIONS),
): { body: string; headers: Record<string, string> } {
  counter += 1;
  const id = randomIds ? randomUUID() : `B-${process.pid}-${Date.now().toString(36)}-${counter}`;
  const store = STORES[counter % STORES.length]!;
  const body = JSON.stringify({
    eventId: `${id}:completed`,
    eventType: 'sale.completed',
    occurredAt: new Date().toISOString(),
    store: { id: store },
    transaction: {
      id,
      total: 12.5,
      currency: 'USD',
      channel: 'pos',
      customer: { type: 'membershipId', value: member },
      items: [
        { id: 'p1', name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 },
        { id: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: 3.5 },
      ],
    },
  });
  return {
    body,
    headers: { 'content-type': 'application/json', ...signedHeaders({ vendor: 'bench-pos', store, secret: SECRET, body }) },
  };
}

/**
 * `members`: the sales are spread over these membership ids in turn (one member by default);
 * `randomIds`: see signedSale; `options`: autocannon's own, for the one run (bench/interleaved.ts).
 */
export async function load(
  port: number,
  seconds: number,
  connections = 32,
  members: readonly string[] = ['MBR-BENCH'],
  randomIds?: boolean,
  options: Pick<Options, 'skipAggregateResult'> = {},
): Promise<Result> {
  let next = 0;
  return autocannon({
    ...options,
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/webhooks/generic',
        setupRequest: (req) => ({ ...req, ...signedSale(members[next++ % members.length], randomIds) }),
      },
    ],
  });
}
