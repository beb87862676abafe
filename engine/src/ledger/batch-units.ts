import { CompiledQuery } from 'kysely';
import { runQuery, type SqlDialect } from '@loyalty-gateway/storage';
import type { Defer, Tx } from './context.js';
import { DeadlinePassed, ensureBefore } from './deadline.js';

export type { Defer } from './context.js';

// The units of a group commit (transaction-batcher.ts): what a unit is, and how one runs in a batch
// without savepoints, with a closing statement it defers to, or in a savepoint of its own.

/**
 * A batch's opening statement (optional, PostgreSQL): given the opening inputs of the batch's
 * units, in the order they will run, what each receives as its work's second argument. One round
 * trip for the batch instead of one per unit (the earn's: its sale lock and member lookup,
 * earn-postgres.ts lockSales). Only batches without savepoints open this way; a unit that runs
 * alone or in a batch with savepoints gets undefined and does that work itself.
 */
export type BatchOpening = (trx: Tx, inputs: unknown[]) => Promise<unknown[]>;

/**
 * A batch's closing statement (optional, PostgreSQL): one statement for the inputs its units
 * deferred (see Defer), in the units' order; gives each unit its output. The earn's: the sale rows,
 * wallet credits, ledger entries and stamp cards of every new sale (earn-postgres.ts recordSales).
 * It may throw for any input it cannot take set-wise (a stamp card past its limit, a deadlock): the
 * whole batch is then rolled back and its units run again in batches with savepoints, where none
 * defers.
 */
export type BatchClosing = (trx: Tx, inputs: unknown[]) => Promise<unknown[]>;

export type UnitWork<T> = (trx: Tx, opened?: unknown, defer?: Defer) => Promise<T>;

/**
 * What a batcher tells its owner that no caller sees: a batch's opening statement failed (a
 * deadlock between two batches' locks, a server error), so its units ran again in batches with
 * savepoints. Serialisable, so it crosses a worker thread's boundary as it is.
 */
export interface BatchNotice {
  event: 'batch-opening-failed' | 'batch-closing-failed';
  /** The units of the batch, run again. */
  units: number;
  error: string;
  /** The database's error code (PostgreSQL's SQLSTATE: 40P01 for a deadlock). */
  code?: string | undefined;
}

export interface Job {
  work: UnitWork<unknown>;
  /** This unit's input to the batch's opening statement (see BatchOpening). */
  opening: unknown;
  /** What the opening statement gave this unit in the batch now running. */
  opened: unknown;
  /** What the unit will lock (see run); units of a batch run in the order of their keys. */
  key: string;
  /** Times this unit was rolled back by a deadlock and queued again. */
  retries: number;
  /** Epoch ms past which this unit must not commit (see EngineCallOptions). */
  deadline: number | undefined;
  /** A rehearsal (see rehearse): run in a transaction of its own, always rolled back, never in a batch. */
  rehearsal?: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A unit that deferred its input to the batch's closing statement (see Defer), waiting for its output. */
export interface Deferred {
  /** The unit's place in the batch. */
  index: number;
  input: unknown;
  /** Hands the unit its output (or an error) and lets it run on. */
  resume: (result: Outcome) => void;
  /** The unit's outcome, once it has run on to its end. */
  settled: Promise<Outcome>;
}

// How many units a batch takes, and what a failure or a near deadline makes it do (transaction-batcher.ts).

export const DEADLOCK_RETRIES = 3;

export const isDeadlock = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '40P01';

/**
 * Units per batch on PostgreSQL: in a batch with savepoints each unit is a subtransaction, and a
 * backend keeps the ids of at most 64 of them in shared memory; past that every other session's
 * snapshot must look them up in pg_subtrans (the "suboverflow" slowdown).
 */
export const POSTGRES_MAX_BATCH = 32;

/**
 * Units per batch on PostgreSQL without savepoints (the usual batch): no subtransactions, so the
 * bound above does not apply. A lane then earns up to this many sales per four round trips and a
 * commit; the bound keeps the opening and closing statements' JSON, and a batch's work that a
 * failing unit makes run again, moderate.
 */
export const POSTGRES_MAX_BARE_BATCH = 128;

/** Time kept for the COMMIT itself when a released unit's deadline is near. */
export const COMMIT_GUARD_MS = 5;

/**
 * After a unit failed in a batch without savepoints, this many batches run with a savepoint per
 * unit: the units that were rolled back with it, and a stream of failing events, are not run twice
 * each time.
 */
export const SAVEPOINT_BATCHES_AFTER_A_FAILURE = 8;

/** A job whose deadline passed in the queue is answered at once and not run. */
export function expired(job: Job): boolean {
  if (job.deadline === undefined || Date.now() < job.deadline) return false;
  job.reject(new DeadlinePassed('start', job.deadline));
  return true;
}

/** The outcome kept in a deferring unit's place until it has run on (an ok one, so it runs again if the batch fails first). */
export const WAITING: Outcome = Object.freeze({ ok: true, value: undefined });

// Compiled once: in a batch with savepoints these run with every unit.
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

/** A unit of a batch without savepoints: its failure must roll back the whole batch (see flush). */
export async function runBare(trx: Tx, job: Job, defer?: Defer): Promise<Outcome> {
  try {
    const value = await job.work(trx, job.opened, defer);
    ensureBefore(job.deadline, 'commit');
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * A unit of a batch with a closing statement: runs until it defers its input (answers the
 * Deferred, the unit waiting for its resume) or ends (answers its outcome).
 */
export function runDeferring(trx: Tx, job: Job, index: number): Promise<Outcome | Deferred> {
  return new Promise((answer) => {
    let deferral: Deferred | undefined;
    const defer: Defer = (input) => {
      if (deferral) return Promise.reject(new Error('a unit of a batch defers at most once'));
      return new Promise((resolve, reject) => {
        let resumed = false;
        const resume = (result: Outcome) => {
          if (resumed) return;
          resumed = true;
          if (result.ok) resolve(result.value);
          else reject(result.error);
        };
        deferral = { index, input, resume, settled: undefined as unknown as Promise<Outcome> };
        // `settled` exists once runBare has returned, at the latest by the next microtask.
        queueMicrotask(() => {
          deferral!.settled = settled;
          answer(deferral!);
        });
      });
    };
    const settled = runBare(trx, job, defer);
    void settled.then((outcome) => {
      if (!deferral) answer(outcome);
    });
  });
}

export async function runInSavepoint(trx: Tx, job: Job, dialect: SqlDialect): Promise<Outcome> {
  await runQuery(trx, SAVEPOINT);
  try {
    const value = await job.work(trx);
    ensureBefore(job.deadline, 'commit');
    // On PostgreSQL a savepoint left open is released by the COMMIT (the next unit's SAVEPOINT of
    // the same name shadows it; a ROLLBACK TO names the newest): one round trip less per unit.
    // SQLite releases it at once (a call inside the process, not a round trip).
    if (dialect === 'sqlite') await runQuery(trx, RELEASE);
    return { ok: true, value };
  } catch (error) {
    await runQuery(trx, ROLLBACK_TO);
    await runQuery(trx, RELEASE);
    return { ok: false, error };
  }
}
