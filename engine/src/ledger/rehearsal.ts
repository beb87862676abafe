import { transaction, type SqlDialect } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';
import { ensureBefore } from './deadline.js';

/** Carries the work's answer out of the transaction it is thrown through (which rolls it back). */
class RolledBack {
  constructor(readonly value: unknown) {}
}

/** Run `work` in a transaction of its own and roll it back, whatever it did: its answer, or its error. */
export async function rollBackAfter<T>(db: Kysely<EngineTables>, work: (trx: Tx) => Promise<T>, deadline: number | undefined): Promise<T> {
  try {
    await transaction(db, async (trx) => {
      ensureBefore(deadline, 'start');
      throw new RolledBack(await work(trx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
  throw new Error('a rehearsal ended without rolling back');
}

/** Rehearsals one PostgreSQL engine runs at once; the others wait their turn (see createRehearsal). */
export const REHEARSALS_AT_ONCE = 2;

/** A deadlock victim (PostgreSQL's 40P01) is rehearsed again this many times before its caller gets the error. */
const DEADLOCK_RETRIES = 3;

const isDeadlock = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '40P01';

export type Rehearse = <T>(work: (trx: Tx) => Promise<T>, deadline?: number) => Promise<T>;

/**
 * Runs a unit of work in a transaction of its own that is always rolled back, and answers what the
 * work returned: the same statements an event runs, nothing of them kept (a preview). Never part
 * of a group-commit batch, whose one transaction commits other callers' units.
 *
 * On SQLite, in the group commit's turn (`inTurn`: TransactionBatcher.rehearse): after the batch
 * it was queued with, before the next one, so previews and earns share the one connection in the
 * order they came (beside the batcher, a stream of previews starved the earns: bench/preview-impact.ts).
 * Each costs the few tens of microseconds of its statements.
 *
 * On PostgreSQL, on a pooled connection beside the commit lanes (in a lane it would hold that
 * lane's batches up for its round trips), taking the locks the work takes in the order an earn
 * takes them (the sale's advisory lock, then the wallet and its stamp cards), for its few round
 * trips: a real earn of the same sale or member waits that long at most, as for an earn on another
 * lane. At most REHEARSALS_AT_ONCE at a time, so a burst of previews holds two of the pool's
 * connections; a deadlock's victim is rehearsed again.
 */
export function createRehearsal(db: Kysely<EngineTables>, dialect: SqlDialect, inTurn: Rehearse, atOnce = REHEARSALS_AT_ONCE): Rehearse {
  if (dialect !== 'postgres') return inTurn;
  let running = 0;
  const waiting: Array<() => void> = [];
  const turn = (): Promise<void> => {
    if (running < atOnce) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async function rehearse<T>(work: (trx: Tx) => Promise<T>, deadline?: number): Promise<T> {
    ensureBefore(deadline, 'start');
    await turn();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await rollBackAfter(db, work, deadline);
        } catch (error) {
          if (!isDeadlock(error) || attempt >= DEADLOCK_RETRIES) throw error;
        }
      }
    } finally {
      done();
    }
  };
}
