import type { EarnOutcome, RaiseSaleResult, RefundResult, WebhookResult, WithdrawRefundsResult } from '@loyalty-gateway/core';

/** Longest part of an unknown eventType echoed back in the warning. */
const ECHO_MAX = 100;

export function ignoredUnknownType(eventType: string): WebhookResult {
  const shown = eventType.length > ECHO_MAX ? `${eventType.slice(0, ECHO_MAX)}…` : eventType;
  return { status: 'ignored', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: `Unknown eventType "${shown}": ignored.` };
}

export const IGNORED_VOID: WebhookResult = Object.freeze({
  status: 'ignored',
  membershipId: '',
  pointsEarned: 0,
  stampsUpdated: [],
  warning: 'sale.voided is accepted and ignored: it has no loyalty effect.',
}) as WebhookResult;

/** A preview's answer to an event it does not preview (a refund, a vendor's list of reversals): nothing reached the engine. */
export const NOT_PREVIEWED: WebhookResult = Object.freeze({
  status: 'ignored',
  membershipId: '',
  pointsEarned: 0,
  stampsUpdated: [],
  warning:
    'Only sales are previewed: nothing was done with this event (a refund, or a list of reversals). Sent to its webhook, it answers what it reversed.',
}) as WebhookResult;

/** A repeat of a sale already processed (spec rule 3). */
export const DUPLICATE_SALE: WebhookResult = Object.freeze({
  status: 'duplicate',
  membershipId: '',
  pointsEarned: 0,
  stampsUpdated: [],
  warning: null,
}) as WebhookResult;

/** A repeat of a refund already reversed. */
export const DUPLICATE_REFUND: WebhookResult = Object.freeze({
  ...DUPLICATE_SALE,
  pointsReversed: 0,
  pointsReCredited: 0,
}) as WebhookResult;

export const NOTHING_TO_REVERSE_WARNING =
  'Nothing to reverse: the original sale never reached the service or earned nothing. If the sale arrives later, this refund is applied to it then.';

/** Results that are duplicates of another sale under the same transaction id (see conflictResult). */
const CONFLICTS = new WeakSet<WebhookResult>();

/**
 * A transaction id already recorded for another sale (other total, currency, customer or items):
 * `duplicate` like any repeat (nothing was applied: the ledger's key decides), with a warning so
 * the vendor's support sees that two different sales share one id. From a featured door the id is
 * the vendor's own order id, never reused: the vendor describes the order differently now (an edit
 * after payment), and the advice says so instead of asking for new ids.
 */
export function conflictResult(transactionId: string, firstReceivedAt: string, featured = false): WebhookResult {
  const advice = featured
    ? 'The vendor now describes this order differently (edited after payment?); the first description stands.'
    : 'Give every sale its own transaction id.';
  const result: WebhookResult = {
    ...DUPLICATE_SALE,
    stampsUpdated: [],
    warning: `Transaction ${transactionId} was already received at ${firstReceivedAt} with another total, currency, customer or items; this sale was not applied. ${advice}`,
  };
  CONFLICTS.add(result);
  return result;
}

/** The outcome a request log line and the metrics record: the status, or `conflict`. */
export const webhookOutcome = (result: WebhookResult): string => (CONFLICTS.has(result) ? 'conflict' : result.status);

/** An earn's (or a preview's) outcome as the vendor is answered: the engine's fingerprint stays out of it. */
export function earnResult(outcome: EarnOutcome, transactionId: string, featured = false): WebhookResult {
  if (outcome.status !== 'duplicate') {
    const { fingerprint: _engineOnly, ...result } = outcome;
    return result;
  }
  return outcome.conflict ? conflictResult(transactionId, outcome.conflict.firstReceivedAt, featured) : DUPLICATE_SALE;
}

/** A reversal as the webhook answers it: processed (or duplicate) with what moved in the wallet. */
export function reverseResult(result: RefundResult & { membershipId: string }): WebhookResult {
  if (result.status === 'ALREADY_PROCESSED') return DUPLICATE_REFUND;
  return {
    status: 'processed',
    membershipId: result.membershipId,
    pointsEarned: 0,
    stampsUpdated: [],
    warning: result.status === 'NOTHING_TO_REVERSE' ? NOTHING_TO_REVERSE_WARNING : null,
    pointsReversed: result.pointsReversed,
    pointsReCredited: result.pointsReCredited,
  };
}

/**
 * refunds.listed: `processed` when reversals were given back now (their ids and the points they
 * returned), `duplicate` when the ledger already matched the vendor's list.
 */
export function withdrawResult(result: WithdrawRefundsResult): WebhookResult & { refundsWithdrawn: string[]; pointsRestored: number } {
  const withdrawn = result.status === 'WITHDRAWN';
  return {
    status: withdrawn ? 'processed' : 'duplicate',
    membershipId: result.membershipId,
    pointsEarned: 0,
    stampsUpdated: [],
    warning:
      withdrawn && result.pointsReDebited > 0
        ? `The order is no longer fully refunded: ${result.pointsReDebited} points redeemed against it and re-credited on its refund were taken back.`
        : null,
    refundsWithdrawn: result.withdrawn,
    pointsRestored: result.pointsRestored,
  };
}

/** A paid order that grew and earned on the added money (raiseSale): `processed`, the points it added. */
export function raisedResult(result: RaiseSaleResult, transactionId: string): WebhookResult {
  return {
    status: 'processed',
    membershipId: result.membershipId,
    pointsEarned: result.pointsEarned,
    stampsUpdated: [],
    warning:
      result.pointsEarned > 0
        ? null
        : `Order ${transactionId} grew after payment; the added money earned no points (a walk-in, or below one point).`,
  };
}
