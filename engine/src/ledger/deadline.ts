import { EngineUnavailableError } from '@loyalty-gateway/core';
import { transaction } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';

/**
 * A call's deadline passed before its unit of work could commit: the work was rolled back (or
 * never started), so nothing of it is written. Unavailable, not a business answer: the caller
 * has given up by now and retries idempotently.
 */
export class DeadlinePassed extends EngineUnavailableError {
  constructor(stage: 'start' | 'commit', deadline: number) {
    super(
      `The loyalty engine did not finish within the caller's deadline (${Date.now() - deadline} ms late at ${stage}); nothing was committed.`,
    );
    this.name = 'DeadlinePassed';
  }
}

/** Throws DeadlinePassed when `deadline` (epoch ms) has passed; no deadline never throws. */
export function ensureBefore(deadline: number | undefined, stage: 'start' | 'commit'): void {
  if (deadline !== undefined && Date.now() >= deadline) throw new DeadlinePassed(stage, deadline);
}

/**
 * Run `work` in its own transaction and commit only while the deadline has not passed: checked
 * before the work starts and again right before COMMIT (a throw there rolls everything back).
 */
export function transactBefore<T>(db: Kysely<EngineTables>, deadline: number | undefined, work: (trx: Tx) => Promise<T>): Promise<T> {
  return transaction(db, async (trx) => {
    ensureBefore(deadline, 'start');
    const value = await work(trx);
    ensureBefore(deadline, 'commit');
    return value;
  });
}
