import { advisoryKey, advisoryXactLock } from './advisory-lock.js';
import type { EngineContext, Tx } from './context.js';

/** Advisory-lock class of a sale's key ('sale'); the catalog sync uses its own class. */
export const SALE_LOCK_CLASS = 0x73616c65;

/** The sale lock's key text (earn-postgres.ts takes the same lock inside its member lookup). */
export const saleLockKey = (source: { vendor: string; storeId: string }, transactionId: string): string =>
  advisoryKey([source.vendor, source.storeId, transactionId]);

/**
 * Serialise the earn of a sale with the refunds of that sale, whichever arrives first. A refund
 * may reach the engine before its sale (events arrive late): the earn then applies the refunds
 * already recorded (earlier-refunds.ts), and a refund finding the sale reverses it. On PostgreSQL
 * (READ COMMITTED) a refund and its sale committing at the same moment would each miss the other
 * (neither sees the other's uncommitted row), so both first take a transaction-scoped advisory
 * lock on (vendor, store, transaction id): the second one's next statement sees the first one's
 * commit. SQLite already serialises every writer on its one connection.
 */
export const lockSale = (
  ctx: Pick<EngineContext, 'dialect'>,
  trx: Tx,
  source: { vendor: string; storeId: string },
  transactionId: string,
): Promise<void> => advisoryXactLock(ctx, trx, SALE_LOCK_CLASS, [source.vendor, source.storeId, transactionId]);
