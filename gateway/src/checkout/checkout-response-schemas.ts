/**
 * JSON schemas of the four checkout results, for the 200 response only: Fastify compiles each once
 * with fast-json-stringify, which writes the declared properties and nothing else (no request is
 * validated with ajv; zod does that).
 */
const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;

const eligibleReward = {
  type: 'object',
  additionalProperties: false,
  properties: {
    rewardId: string,
    title: string,
    type: string,
    pointsCost: { type: ['integer', 'null'] },
    discountValue: { type: ['number', 'null'] },
    eligible: { type: 'boolean' },
    reason: nullableString,
  },
  required: ['rewardId', 'title', 'type', 'pointsCost', 'discountValue', 'eligible', 'reason'],
} as const;

export const eligibilityResultJsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    membershipId: string,
    walletBalance: integer,
    redemptionRate: { type: 'number' },
    eligibleRewards: { type: 'array', items: eligibleReward },
    warning: nullableString,
  },
  required: ['membershipId', 'walletBalance', 'redemptionRate', 'eligibleRewards', 'warning'],
} as const;

export const redeemResultJsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: string,
    membershipId: string,
    redemptionId: nullableString,
    rewardId: nullableString,
    pointsDeducted: integer,
    walletBalance: integer,
  },
  required: ['status', 'membershipId', 'redemptionId', 'rewardId', 'pointsDeducted', 'walletBalance'],
} as const;

export const refundResultJsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { status: string, pointsReversed: integer, pointsReCredited: integer },
  required: ['status', 'pointsReversed', 'pointsReCredited'],
} as const;

export const catalogSyncResultJsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: string,
    itemsReceived: integer,
    itemsCreated: integer,
    itemsUpdated: integer,
    itemsDeactivated: integer,
  },
  required: ['status', 'itemsReceived', 'itemsCreated', 'itemsUpdated', 'itemsDeactivated'],
} as const;
