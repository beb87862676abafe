import { EligibilityRequest } from '@loyalty-gateway/core';
import '../http/fastify-types.js';
import { scopeOf } from '../webhooks/to-engine-command.js';
import type { CheckoutEndpoint } from './checkout-endpoint.js';
import { eligibilityResultJsonSchema } from './checkout-response-schemas.js';
import { eligibilityResult } from './checkout-results.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { toMinor } from './to-minor.js';

/**
 * POST /v1/redemption/eligibility: read-only, safe on every cart change. A customer who is not a
 * member is a 200 with an empty membershipId and a warning (never a 404).
 */
export const eligibilityEndpoint: CheckoutEndpoint = {
  feature: 'eligibility',
  path: '/v1/redemption/eligibility',
  responseSchema: eligibilityResultJsonSchema,
  handler:
    ({ engine }) =>
    async (request) => {
      const body = readJsonBody(EligibilityRequest, request.body);
      request.audit = { eventType: 'eligibility' };
      const result = await engine.eligibility({
        ...scopeOf(request.connection!),
        customer: body.customer,
        orderValueMinor: toMinor(body.orderValue),
      });
      const eligible = result.eligibleRewards.filter((r) => r.eligible).length;
      request.audit.outcome = result.membershipId === '' ? 'not_a_member' : `eligible:${eligible}/${result.eligibleRewards.length}`;
      return eligibilityResult(result);
    },
};
