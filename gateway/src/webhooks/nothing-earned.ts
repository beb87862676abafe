import type { FeaturedEnvelope } from '@loyalty-gateway/core';
import type { PipelineResult } from './webhook-pipeline.js';
import { webhookOutcome } from './webhook-results.js';

/**
 * Why a sale that was processed earned nothing: a fixed set, so the metric's label stays bounded
 * and the journal's filter can name one.
 * - `walk_in`: no customer on the sale.
 * - `unknown_customer`: a customer no member matches (or whose contact cannot be read).
 * - `below_threshold`: a member, but the total is below one point and no item matched a stamp card.
 * - `other_currency`: a member, but the sale is in another currency than the merchant earns on.
 * - `refunded_first`: a member, but refunds that arrived before the sale took back what it earned.
 */
export const NOTHING_EARNED_REASONS = ['walk_in', 'unknown_customer', 'below_threshold', 'other_currency', 'refunded_first'] as const;
export type NothingEarnedReason = (typeof NOTHING_EARNED_REASONS)[number];

/** Each reason in words, for the console. */
export const NOTHING_EARNED_TEXT: Readonly<Record<NothingEarnedReason, string>> = {
  walk_in: 'a walk-in: no customer on the sale',
  unknown_customer: 'no member matches the customer',
  below_threshold: 'below one point, and no stamp card matched',
  other_currency: 'in another currency than the merchant earns on',
  refunded_first: 'refunds that arrived first took back what it earned',
};

/**
 * Why this sale earned nothing, or null: it earned points or stamps, it is not a processed sale
 * (a duplicate, a conflict, a refund), or it is not a sale. A member's reason is read from the
 * engine's warning (the engine port reports it in words only); its wording is pinned by the
 * gateway's tests through the embedded engine.
 */
export function nothingEarnedOf(envelope: FeaturedEnvelope, result: PipelineResult): NothingEarnedReason | null {
  if (envelope.eventType !== 'sale.completed' || webhookOutcome(result) !== 'processed') return null;
  if (result.pointsEarned > 0 || result.stampsUpdated.length > 0) return null;
  if (result.membershipId === '') return envelope.transaction.customer ? 'unknown_customer' : 'walk_in';
  const warning = result.warning ?? '';
  if (warning.includes('but this merchant earns on')) return 'other_currency';
  if (warning.includes('refunded before the sale arrived')) return 'refunded_first';
  return 'below_threshold';
}
