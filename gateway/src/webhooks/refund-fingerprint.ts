import type { ReverseCommand } from '@loyalty-gateway/core';

/**
 * The value the 24-hour cache keeps under a refund id: what the ledger compares when the id comes
 * back (the original sale's transaction id and the amount in minor units, or `full`). A hit with
 * this value is an identical retry and answers `duplicate`; any other value (another order or
 * amount, or a writer that stored no fingerprint) goes to the engine, whose ledger decides (an
 * identical retry `ALREADY_PROCESSED`, a reuse 400 `refund_id_reused`): the answer then does not
 * depend on whether the cache still holds the key. The amount comes first and holds no `:`, so
 * the value is unambiguous whatever the transaction id; it never equals a bare `1`.
 */
export function refundFingerprint(command: Pick<ReverseCommand, 'transactionId' | 'amountMinor'>): string {
  return `${command.amountMinor ?? 'full'}:${command.transactionId}`;
}
