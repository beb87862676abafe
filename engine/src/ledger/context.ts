import type { Kysely } from 'kysely';
import type { SqlDialect } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { SettingsCache } from './settings-cache.js';

/**
 * Given to a unit of a batch that opened with one statement and has a closing one: the unit hands
 * its input to the closing statement and waits for its output. The batch goes on with its next
 * unit meanwhile; once every unit has run up to its deferral (or to its end), the closing
 * statement runs, and the deferring units then resume one at a time, in the batch's order. A unit
 * defers at most once.
 */
export type Defer = (input: unknown) => Promise<unknown>;

/** What every engine operation works with: the database, the clock and the settings cache. */
export interface EngineContext {
  db: Kysely<EngineTables>;
  dialect: SqlDialect;
  cache: SettingsCache;
  /** Current time as ISO-8601 text. */
  now(): string;
  /** The reward-code prefix without the dash (`LOYAL`). */
  codePrefix(): string;
  /**
   * Run one event's writes atomically (one unit of a group commit, see transaction-batcher.ts);
   * never committed once `deadline` (epoch ms) has passed (DeadlinePassed instead). `key` names
   * what the writes lock (the member): units are ordered and spread over connections by it.
   * On PostgreSQL an earn passes its SaleLock as `opening`: a batch without savepoints takes all
   * its units' sale locks and member lookups in one statement, and `work` receives the unit's
   * LockedSale (undefined otherwise: the unit locks and looks up itself), and `defer`, with which
   * it hands its sale to the batch's one closing statement (earn-postgres.ts recordSales).
   */
  atomically<T>(
    work: (trx: Tx, opened?: unknown, defer?: Defer) => Promise<T>,
    deadline?: number,
    key?: string,
    opening?: unknown,
  ): Promise<T>;
}

export type Tx = Kysely<EngineTables>;
