import { ErrorBody } from '@loyalty-gateway/core';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type EngineTables } from '@loyalty-gateway/engine';
import { balanceOf, ledgerSum } from '@loyalty-gateway/engine/testing';
import type { Kysely } from 'kysely';
import { openGateway, type GatewayFixture } from './gateway-fixture.js';
import { buildSeed } from './seed-builder.js';

/** Rewards of the test seed, plus one with a minimum spend and one of each issued / tier type. */
export const REWARDS = {
  stamp: '6f1c2a7e-0b7d-4c1a-9a3e-000000000001',
  fiveOff: '6f1c2a7e-0b7d-4c1a-9a3e-000000000002',
  minSpend: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003',
  discount: '6f1c2a7e-0b7d-4c1a-9a3e-000000000004',
  freeItem: '6f1c2a7e-0b7d-4c1a-9a3e-000000000005',
  tier: '6f1c2a7e-0b7d-4c1a-9a3e-000000000006',
} as const;

/** Codes issued to MEMBERS.perks: two DISCOUNT codes and one FREE_ITEM code. */
export const CODES = { discount: 'LOYAL-C-DISC1', discountSpare: 'LOYAL-C-DISC2', freeItem: 'LOYAL-C-MUF1' } as const;

/** Members of the checkout seed and their opening balances (redemptionRate 100, earnRate 1). */
export const MEMBERS = {
  rich: { id: 'MBR-C-RICH', points: 5000 },
  poor: { id: 'MBR-C-POOR', points: 100 },
  refund: { id: 'MBR-C-REF', points: 2000 },
  concurrent: { id: 'MBR-C-CONC', points: 1000 },
  /** Holds the issued codes; 4000 opening points reach the Gold tier (3000). */
  perks: { id: 'MBR-C-PERK', points: 4000 },
} as const;

export const PATHS = {
  eligibility: '/v1/redemption/eligibility',
  redeem: '/v1/redemption/redeem',
  refund: '/v1/refund',
  catalog: '/v1/catalog/sync',
} as const;

/** The gateway test seed with the checkout members and the minimum-spend reward added. */
export function checkoutSeedDocument() {
  return buildSeed({
    members: Object.values(MEMBERS).map((m) => ({ membershipId: m.id, points: m.points })),
    rewards: [
      { id: REWARDS.minSpend, type: 'POINTS', title: '$2 off orders over $20', pointsCost: 200, discountValue: 2, minSpend: 20 },
      { id: REWARDS.discount, type: 'DISCOUNT', title: '$10 off over $30', discountValue: 10, minSpend: 30 },
      { id: REWARDS.freeItem, type: 'FREE_ITEM', title: 'Free muffin', match: { skus: ['BAK-MUFFIN'] } },
      { id: REWARDS.tier, type: 'TIER', title: 'Gold: $2 off', minPoints: 3000, discountValue: 2 },
    ],
    issuedCodes: [
      { code: CODES.discount, rewardId: REWARDS.discount, membershipId: MEMBERS.perks.id },
      { code: CODES.discountSpare, rewardId: REWARDS.discount, membershipId: MEMBERS.perks.id },
      { code: CODES.freeItem, rewardId: REWARDS.freeItem, membershipId: MEMBERS.perks.id },
    ],
  });
}

export type CheckoutGatewayOptions = Parameters<typeof openGateway>[0];

/**
 * The member's wallet as stored, not as the API shows it: `balance` may be negative (a refund of
 * points already spent), which eligibility's `walletBalance` (and so `gw.balance`) clamps to 0;
 * `ledgerSum` is the sum of the member's ledger entries, which must always equal it.
 */
export async function rawWallet(gw: GatewayFixture, membershipId: string): Promise<{ balance: number; ledgerSum: number }> {
  const db = gw.database.db as Kysely<EngineTables>;
  return { balance: await balanceOf(db, membershipId), ledgerSum: await ledgerSum(db, membershipId) };
}

/** A real gateway (SQLite or PostgreSQL) on the checkout seed. */
export const openCheckoutGateway = (dialect: 'sqlite' | 'postgres', options: CheckoutGatewayOptions = {}): Promise<GatewayFixture> =>
  openGateway({ dialect, seedDocument: checkoutSeedDocument(), ...options });

export const byMembership = (membershipId: string) => ({ type: 'membershipId', value: membershipId });

let counter = 0;
/** A fresh order / refund id. */
export const freshId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${(counter += 1)}`;

/** Assert the spec's Error body: status, code, requestId echoing X-Request-ID; returns it. */
export function expectError(response: LightMyRequestResponse, status: number, code: string): ErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = ErrorBody.parse(response.json());
  expect(body).toMatchObject({ statusCode: status, code });
  expect(body.requestId).toBe(response.headers['x-request-id']);
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** The `fields` paths of an Error body. */
export const fieldPaths = (body: ErrorBody): string[] => (body.fields ?? []).map((f) => f.path);

/** A 200 JSON answer, returned parsed. */
export function expectOk(response: LightMyRequestResponse): unknown {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}
