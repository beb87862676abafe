import { GatewayError, RedeemRequest } from '@loyalty-gateway/core';
import '../http/fastify-types.js';
import { scopeOf } from '../webhooks/to-engine-command.js';
import type { CheckoutEndpoint } from './checkout-endpoint.js';
import { redeemResultJsonSchema } from './checkout-response-schemas.js';
import { redeemResult } from './checkout-results.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { toMinor } from './to-minor.js';

/**
 * POST /v1/redemption/redeem: committed at payment success (no hold). Exactly one selector, checked
 * after the schema (both or neither: 400 selector_required). Idempotency and the 409 belong to the
 * engine's ledger, which alone can replay the original figures: an identical retry is 200
 * ALREADY_PROCESSED, the same order and reward with a different payload 409 already_redeemed.
 */
export const redeemEndpoint: CheckoutEndpoint = {
  feature: 'redeem',
  path: '/v1/redemption/redeem',
  responseSchema: redeemResultJsonSchema,
  handler:
    ({ engine }) =>
    async (request) => {
      const body = readJsonBody(RedeemRequest, request.body);
      request.audit = { eventType: 'redeem', transactionId: body.externalTransactionId };
      if ((body.rewardId === undefined) === (body.pointsToRedeem === undefined)) throw new GatewayError('selector_required');
      const result = await engine.redeem({
        ...scopeOf(request.connection!),
        customer: body.customer,
        externalTransactionId: body.externalTransactionId,
        rewardId: body.rewardId,
        pointsToRedeem: body.pointsToRedeem,
        orderValueMinor: toMinor(body.orderValue),
      });
      request.audit.outcome = result.status;
      return redeemResult(result);
    },
};
