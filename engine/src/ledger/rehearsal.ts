import { transaction } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';
import { ensureBefore } from './deadline.js';

/** Carries the work's answer out of the transaction it is thrown through (which rolls it back). */
class RolledBack {
  constructor(readonly value: unknown) {}
}

/** Rehearsals one engine runs at once; the others wait their turn (see createRehearsal). */
export const REHEARSALS_AT_ONCE = 2;

/** A deadlock victim (PostgreSQL's 40P01) is rehearsed again this many times before its caller gets the error. */
const DEADLOCK_RETRIES = 3;

const isDeadlock = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '40P01';

/**
 * Runs a unit of work in a transaction of its own that is always rolled back, and answers what the
 * work returned: the same statements an event runs, nothing of them kept (a preview). Never part
 * of a group-commit batch, whose one transaction commits other callers' units.
 *
 * On SQLite the transaction waits for the one connection like any other (Kysely's driver hands it
 * out one transaction at a time): between two batches, for the few tens of microseconds the work
 * takes. On PostgreSQL it runs on a pooled connection beside the commit lanes and takes the locks
 * the work takes, in the order an earn takes them (the sale's advisory lock, then the wallet and
 * its stamp cards), for its few round trips: a real earn of the same sale or member waits that
 * long at most, as it would for an earn on another lane. At most REHEARSALS_AT_ONCE run at a
 * time, so a burst of previews holds two of the pool's connections, never the lanes' share.
 */
export function createRehearsal(db: Kysely<EngineTables>, atOnce = REHEARSALS_AT_ONCE) {
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

  async function once<T>(work: (trx: Tx) => Promise<T>, deadline: number | undefined): Promise<T> {
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

  return async function rehearse<T>(work: (trx: Tx) => Promise<T>, deadline?: number): Promise<T> {
    ensureBefore(deadline, 'start');
    await turn();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(work, deadline);
        } catch (error) {
          if (!isDeadlock(error) || attempt >= DEADLOCK_RETRIES) throw error;
        }
      }
    } finally {
      done();
    }
  };
}

export type Rehearse = ReturnType<typeof createRehearsal>;
