import { ErrorBody, WebhookResult } from '@loyalty-gateway/core';
import { jsonPaths, mutateJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund, sale } from '../../src/testing/test-seed.js';

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
        path: fc.constantFrom(...jsonPaths(base)),
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
      fc.asyncProperty(mutation, ({ base, path, op, value, key }) => checkContract(JSON.stringify(mutateJson(base, path, op, value, key)))),
      { numRuns: 300 },
    );
  });
});
