import { CatalogSyncResult, EligibilityResult, ErrorBody, RedeemResult, RefundResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { STORE } from '../../src/testing/test-seed.js';
import { MEMBERS, PATHS, REWARDS, byMembership, openCheckoutGateway, rawWallet } from '../../src/testing/checkout-kit.js';
import { ODD_JSON_VALUES, jsonPaths, mutateJson } from '@loyalty-gateway/core/testing';

interface Target {
  path: string;
  base: unknown;
  /** Statuses the spec lists for the endpoint (plus 422 validation, which applies everywhere). */
  statuses: number[];
  result: z.ZodType;
}

const TARGETS: Target[] = [
  {
    path: PATHS.eligibility,
    base: { customer: byMembership(MEMBERS.rich.id), orderValue: 25 },
    statuses: [200, 400, 422],
    result: EligibilityResult,
  },
  {
    path: PATHS.redeem,
    base: { customer: byMembership(MEMBERS.rich.id), externalTransactionId: 'F-1', rewardId: REWARDS.fiveOff, orderValue: 25 },
    statuses: [200, 400, 404, 409, 422],
    result: RedeemResult,
  },
  {
    path: PATHS.refund,
    base: { externalTransactionId: 'F-1', refundTransactionId: 'FR-1', refundAmount: 5 },
    statuses: [200, 400, 422],
    result: RefundResult,
  },
  {
    path: PATHS.catalog,
    base: { store: { id: STORE }, items: [{ externalId: 'f1', name: 'Fuzz', sku: 'F', category: 'c', price: 1.25, isActive: true }] },
    statuses: [200, 400, 422],
    result: CatalogSyncResult,
  },
];

const values = fc.oneof(
  fc.jsonValue(),
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(0, 0.001, 10.005, 1e21, -0.01, '', 'x'.repeat(256), REWARDS.stamp, 'membershipId', null, [], {}),
  fc.constantFrom(...ODD_JSON_VALUES),
);

// Both dialects: PostgreSQL's text refuses what SQLite stores (a NUL), so a 500 can hide on one only.
describe.each(testDialects().flatMap(({ name }) => TARGETS.map((target) => ({ ...target, dialect: name }))))(
  'fuzz $path on $dialect: never a 500, always a spec status and shape',
  (target) => {
    let gw: GatewayFixture;
    beforeAll(async () => {
      gw = await openCheckoutGateway(target.dialect);
    });
    afterAll(() => gw.close());

    async function checkContract(body: string | Buffer): Promise<void> {
      const response = await gw.post(target.path, body);
      expect(target.statuses, response.body).toContain(response.statusCode);
      if (response.statusCode === 200) {
        target.result.parse(response.json()); // strict: no extra field
      } else {
        const error = ErrorBody.parse(response.json());
        expect(error.statusCode).toBe(response.statusCode);
        expect(error.requestId).toBe(response.headers['x-request-id']);
        if (error.code === 'validation_failed' || error.code === 'missing_field') expect(error.fields?.length ?? 0).toBeGreaterThan(0);
      }
      // The stored wallet, not gw.balance (spendable points, clamped at 0, so that check could never fail):
      // nothing here refunds a sale that earned, so the wallet never goes below 0, and the ledger agrees with it.
      const wallet = await rawWallet(gw, MEMBERS.rich.id);
      expect(wallet.balance).toBeGreaterThanOrEqual(0);
      expect(wallet.ledgerSum).toBe(wallet.balance);
    }

    it('arbitrary JSON, strings and bytes', async () => {
      const bodies = fc.oneof(
        fc.json(),
        fc.string(),
        fc.uint8Array({ maxLength: 120 }).map((a) => Buffer.from(a)),
      );
      await fc.assert(fc.asyncProperty(bodies, checkContract), { numRuns: 60 });
    });

    it('a valid body with one mutation (set / delete / add a field anywhere)', async () => {
      const mutation = fc.record({
        path: fc.constantFrom(...jsonPaths(target.base)),
        op: fc.constantFrom<'set' | 'delete' | 'add'>('set', 'delete', 'add'),
        value: values,
        key: fc.string({ maxLength: 8 }),
      });
      await fc.assert(
        fc.asyncProperty(mutation, ({ path, op, value, key }) =>
          checkContract(JSON.stringify(mutateJson(target.base, path, op, value, key))),
        ),
        { numRuns: 120 },
      );
    });
  },
);
