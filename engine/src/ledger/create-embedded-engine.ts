import {
  EngineUnavailableError,
  type EngineCallOptions,
  type LoyaltyEngine,
  type OutletQuery,
  type ReversedOrdersQuery,
} from '@loyalty-gateway/core';
import { sql, type Kysely } from 'kysely';
import { isConnectionLoss, type SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import { applySeed } from '../seed/apply-seed.js';
import { DEFAULT_CODE_PREFIX, type EngineSeed, type EngineSeedInput } from '../seed/engine-seed.js';
import { catalogSync } from './catalog-sync.js';
import type { EngineContext } from './context.js';
import { earn } from './earn.js';
import { eligibility } from './eligibility.js';
import { findOutlet } from './find-outlet.js';
import { reversedOrders } from './reversed-orders.js';
import { listMerchants } from './list-merchants.js';
import { previewEarn } from './preview-earn.js';
import { raiseSale } from './raise-sale.js';
import { redeem } from './redeem.js';
import { reverse } from './reverse.js';
import { SettingsCache } from './settings-cache.js';
import { withdrawRefunds } from './withdraw-refunds.js';
import { lockSales, recordSales, type SaleLock, type SaleRecord } from './earn-postgres.js';
import { createRehearsal } from './rehearsal.js';
import type { BatchNotice } from './transaction-batcher.js';
import { GroupCommit } from './group-commit.js';

export interface EmbeddedEngine extends LoyaltyEngine {
  /** Apply the engine part of a seed file, idempotently (see apply-seed.ts). */
  applySeed(seed: EngineSeedInput): Promise<void>;
}

export interface EmbeddedEngineOptions {
  /**
   * Opened, migrated (`migrate(db, engineMigrations)`, once at boot) and owned by the caller: the
   * engine never closes it.
   */
  database: SqlDatabase<any>;
  /**
   * Reward-code prefix this engine uses, over the stored one (tests and tools; the gateway leaves
   * it unset and uses what seeds established). A seed declaring another is refused.
   */
  codePrefix?: string;
  clock?: () => Date;
  /**
   * PostgreSQL: group-commit batchers side by side (default POSTGRES_LANES, 1); SQLite always has
   * one. Each is a serial chain of round trips (a batch of new sales is four: BEGIN, the opening
   * and closing statements, COMMIT; a duplicate, used codes or earlier refunds add their own), so a
   * PostgreSQL across a network, where each round trip waits, may want more (docs/operators.md).
   */
  groupCommitLanes?: number;
  /** What went wrong that no caller sees (a group-commit batch's opening statement failed): for the owner's log. */
  onNotice?: (notice: EngineNotice) => void;
}

/** See EmbeddedEngineOptions.onNotice. */
export type EngineNotice = BatchNotice;

/** The log message of each notice (the gateway's and the engine service's logs say the same). */
export const ENGINE_NOTICE_MESSAGES: Record<EngineNotice['event'], string> = {
  'batch-opening-failed':
    "a group-commit batch's opening statement (its sales' locks and member lookups) failed; its sales ran again in batches with a savepoint each, none lost",
  'batch-closing-failed':
    "a group-commit batch's closing statement (its new sales, credits and stamp cards in one) failed or could not take a sale; the batch's sales ran again in batches with a savepoint each, none lost",
};

async function storedPrefix(db: Kysely<EngineTables>): Promise<string | undefined> {
  const row = await db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirst();
  return row?.value;
}

/** The reference loyalty engine, embedded, on a database its boot has migrated. */
export async function createEmbeddedEngine(options: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  const db = options.database.db as Kysely<EngineTables>;
  const clock = options.clock ?? (() => new Date());
  let prefix = options.codePrefix ?? (await storedPrefix(db)) ?? DEFAULT_CODE_PREFIX;
  const groupCommit = new GroupCommit(
    db,
    options.database.dialect,
    options.groupCommitLanes,
    options.database.dialect === 'postgres' ? (trx, locks) => lockSales(trx, locks as SaleLock[]) : undefined,
    options.onNotice,
    options.database.dialect === 'postgres' ? (trx, records) => recordSales(trx, records as SaleRecord[]) : undefined,
  );
  const ctx: EngineContext = {
    db,
    dialect: options.database.dialect,
    cache: new SettingsCache(db, () => clock().getTime()),
    now: () => clock().toISOString(),
    codePrefix: () => prefix,
    atomically: (work, deadline, key, opening) => groupCommit.run(work, deadline, key, opening),
  };
  // Previews: the earn's own work in a transaction always rolled back (SQLite: in the group commit's turn).
  const rehearse = createRehearsal(db, options.database.dialect, (work, deadline) => groupCommit.rehearse(work, deadline));
  let closed = false;
  // A database that is down or restarting is the engine being unavailable (retryable), not a fault.
  const open =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (closed) return Promise.reject(new Error('the loyalty engine is closed'));
      return fn(...args).catch((error: unknown) => {
        throw isConnectionLoss(error)
          ? new EngineUnavailableError('The loyalty engine cannot reach its database right now.', error)
          : error;
      });
    };
  return {
    earn: open((command, options?: EngineCallOptions) => earn(ctx, command, options)),
    raiseSale: open((command, options?: EngineCallOptions) => raiseSale(ctx, command, options)),
    previewEarn: open((command, options?: EngineCallOptions) => previewEarn(ctx, rehearse, command, options)),
    reverse: open((command, options?: EngineCallOptions) => reverse(ctx, command, options)),
    withdrawRefunds: open((command, options?: EngineCallOptions) => withdrawRefunds(ctx, command, options)),
    eligibility: open((command, options?: EngineCallOptions) => eligibility(ctx, command, options)),
    redeem: open((command, options?: EngineCallOptions) => redeem(ctx, command, options)),
    catalogSync: open((command, options?: EngineCallOptions) => catalogSync(ctx, command, options)),
    findOutlet: open((query: OutletQuery) => findOutlet(ctx, query)),
    reversedOrders: open((query: ReversedOrdersQuery) => reversedOrders(ctx, query)),
    listMerchants: open(() => listMerchants(ctx)),
    applySeed: open(async (seed: EngineSeedInput) => {
      const effective = (s: EngineSeed) => options.codePrefix ?? s.codePrefix ?? prefix;
      const applied = await applySeed(db, seed, effective, ctx.now());
      prefix = effective(applied);
      ctx.cache.invalidate();
    }),
    ping: open(async () => {
      await sql`select 1`.execute(db);
    }),
    async close() {
      closed = true;
      ctx.cache.invalidate();
    },
  };
}
