import { uuidV7 } from '@loyalty-gateway/core';

let lastMs = -1;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits. Keys made this way are
 * unique across processes like any UUID but sort by creation time, so the ledger's B-tree indexes
 * grow at their right edge instead of touching a random page per insert (measured: several times
 * fewer pages written per earn on SQLite than random v4 keys).
 *
 * Monotonic within this process (RFC 9562 §6.2 method 1): ids made in the same millisecond carry
 * an increasing 12-bit counter in `rand_a`, so rows ordered by id come back in the order they were
 * made (refunds of one sale recorded in the same millisecond are applied in their order). A clock
 * that steps back keeps the last millisecond; 4,096 ids in one millisecond move on to the next.
 */
export function newId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs += 1;
    counter = 0;
  }
  return uuidV7(lastMs, counter);
}
