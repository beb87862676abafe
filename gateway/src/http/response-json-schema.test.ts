import { CatalogSyncResult, EligibilityResult, RedeemResult, RefundResult, WebhookResult } from '@loyalty-gateway/core';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  catalogSyncResultJsonSchema,
  eligibilityResultJsonSchema,
  redeemResultJsonSchema,
  refundResultJsonSchema,
} from '../checkout/checkout-response-schemas.js';
import { ReadyResult } from '../readiness-route.js';
import { webhookResultJsonSchema } from '../webhooks/webhook-result-schema.js';
import { responseJsonSchema } from './response-json-schema.js';

/** What Fastify's serializer writes for `value` under a route's 200 response schema. */
async function served(jsonSchema: Record<string, unknown>, value: unknown): Promise<unknown> {
  const app = Fastify();
  app.get('/', { schema: { response: { 200: jsonSchema } } }, async () => value);
  try {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    return response.json();
  } finally {
    await app.close();
  }
}

const stamp = { rewardId: 'r-1', rewardTitle: 'Tenth coffee free', current: 3, required: 10, completed: false };
const reward = {
  rewardId: 'r-2',
  title: '5 off',
  type: 'DISCOUNT',
  pointsCost: 500,
  discountValue: 5,
  eligible: false,
  reason: 'needs 500 points',
};

/** Every route's 200 schema, with an answer that sets every field (optional ones included). */
const ROUTES = [
  {
    route: 'POST /webhooks/generic',
    zod: WebhookResult,
    jsonSchema: webhookResultJsonSchema,
    full: {
      status: 'processed',
      membershipId: 'm-1',
      pointsEarned: 12,
      stampsUpdated: [stamp],
      warning: 'w',
      pointsReversed: 4,
      pointsReCredited: 1,
    },
  },
  {
    route: 'POST /v1/checkout/eligibility',
    zod: EligibilityResult,
    jsonSchema: eligibilityResultJsonSchema,
    full: { membershipId: 'm-1', walletBalance: 800, redemptionRate: 0.01, eligibleRewards: [reward], warning: 'w' },
  },
  {
    route: 'POST /v1/checkout/redeem',
    zod: RedeemResult,
    jsonSchema: redeemResultJsonSchema,
    full: { status: 'REDEEMED', membershipId: 'm-1', redemptionId: 'red-1', rewardId: 'r-2', pointsDeducted: 500, walletBalance: 300 },
  },
  {
    route: 'POST /v1/checkout/refund',
    zod: RefundResult,
    jsonSchema: refundResultJsonSchema,
    full: { status: 'REVERSED', pointsReversed: 12, pointsReCredited: 500 },
  },
  {
    route: 'POST /v1/catalog/sync',
    zod: CatalogSyncResult,
    jsonSchema: catalogSyncResultJsonSchema,
    full: { status: 'synced', itemsReceived: 3, itemsCreated: 1, itemsUpdated: 1, itemsDeactivated: 1 },
  },
  {
    route: 'GET /ready',
    zod: ReadyResult,
    jsonSchema: responseJsonSchema(ReadyResult),
    full: { status: 'ready', checks: { store: 'ok', engine: 'ok' } },
  },
] as const;

describe('response JSON schemas derived from the zod schemas', () => {
  it.each(ROUTES)('$route writes every field of a full answer', async ({ zod, jsonSchema, full }) => {
    expect(zod.parse(full)).toEqual(full);
    expect(Object.keys(full).sort()).toEqual(Object.keys(zod.shape).sort());
    expect(await served(jsonSchema, full)).toEqual(full);
  });

  it('writes nulls where the zod schema allows them', async () => {
    const nulls = { ...reward, pointsCost: null, discountValue: null, reason: null };
    const answer = { membershipId: '', walletBalance: 0, redemptionRate: 0, eligibleRewards: [nulls], warning: null };
    expect(await served(eligibilityResultJsonSchema, answer)).toEqual(answer);
  });

  it('writes a field added to the zod schema (nothing to retype beside it)', async () => {
    const Extended = WebhookResult.extend({ tierChanged: z.strictObject({ from: z.string(), to: z.string().nullable() }) });
    const answer = {
      status: 'processed',
      membershipId: 'm-1',
      pointsEarned: 1,
      stampsUpdated: [],
      warning: null,
      tierChanged: { from: 'silver', to: 'gold' },
    };
    expect(await served(responseJsonSchema(Extended), answer)).toEqual(answer);
    expect(await served(webhookResultJsonSchema, answer)).not.toHaveProperty('tierChanged');
  });

  it('gives a nullable a type list, so the serializer picks no branch per reply', () => {
    expect(JSON.stringify(eligibilityResultJsonSchema)).not.toContain('anyOf');
    expect(eligibilityResultJsonSchema).not.toHaveProperty('$schema');
  });
});
