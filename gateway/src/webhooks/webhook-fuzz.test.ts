import { ErrorBody, WebhookResult } from '@loyalty-gateway/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../testing/gateway-fixture.js';
import { refund, sale } from '../testing/test-seed.js';

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway();
});
afterAll(() => gw.close());

/** Send signed bytes; assert the response contract; on a rejection, the balance must not move. */
async function checkContract(body: string | Buffer): Promise<void> {
  const before = await gw.balance('MBR-0001');
  const response = await gw.send(body);
  expect([200, 400, 422], response.body).toContain(response.statusCode);
  if (response.statusCode === 200) {
    WebhookResult.parse(response.json());
    return;
  }
  const error = ErrorBody.parse(response.json());
  expect(error.statusCode).toBe(response.statusCode);
  expect(error.requestId).toBe(response.headers['x-request-id']);
  if (response.statusCode === 422) expect(error.fields?.length ?? 0).toBeGreaterThan(0);
  expect(await gw.balance('MBR-0001')).toBe(before);
}

type Json = unknown;
const paths = (value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> => {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => paths((value as Record<string | number, Json>)[k], [...prefix, k]))];
};

function mutate(base: Json, path: Array<string | number>, op: 'set' | 'delete' | 'add', value: Json, key: string): Json {
  const copy = structuredClone(base) as Record<string | number, Json>;
  if (path.length === 0) return op === 'set' ? value : copy;
  let parent: Record<string | number, Json> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last])) {
    (parent[last] as Record<string, Json>)[key] = value;
  }
  return copy;
}

const bases = [sale(), { ...sale(), eventType: 'sale.voided' }, refund('T-fuzz', 'R-fuzz', 1.5)];

describe('fuzz: signed bodies never produce a 500', () => {
  it('arbitrary JSON text and arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
        ),
        (body) => checkContract(body),
      ),
      { numRuns: 150 },
    );
  });

  it('valid envelopes with one mutation (set / delete / add a field anywhere)', async () => {
    const mutation = fc.constantFrom(...bases).chain((base) =>
      fc.record({
        base: fc.constant(base),
        path: fc.constantFrom(...paths(base)),
        op: fc.constantFrom<'set' | 'delete' | 'add'>('set', 'delete', 'add'),
        value: fc.oneof(
          fc.jsonValue(),
          fc.double(),
          fc.integer({ min: -5, max: 5 }),
          fc.constantFrom(0, 0.001, 10.005, 1e21, -0.01, '', 'x'.repeat(256), 'sale.completed', 'sale.refunded'),
        ),
        key: fc.string({ maxLength: 10 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(mutation, ({ base, path, op, value, key }) => checkContract(JSON.stringify(mutate(base, path, op, value, key)))),
      { numRuns: 300 },
    );
  });
});
