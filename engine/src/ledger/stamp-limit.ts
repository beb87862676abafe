import { GatewayError } from '@loyalty-gateway/core';
import type { RewardRule } from '../rules/reward-rule.js';

/**
 * A member's lifetime stamps on one card stay a safe integer (2^53 - 1), the largest count both
 * dialects and JavaScript hold exactly. A sale that would pass it is refused whole (422, nothing
 * recorded) rather than losing stamps to rounding.
 */
export const MAX_STAMPS = Number.MAX_SAFE_INTEGER;

export function tooManyStamps(reward: RewardRule, stamps: number): GatewayError {
  const message = `The quantities of the lines matching "${reward.title}" (${stamps}) would take the customer's stamp count past ${MAX_STAMPS}; the sale was not recorded.`;
  return new GatewayError('validation_failed', { message, fields: [{ path: 'transaction.items', message }] });
}
