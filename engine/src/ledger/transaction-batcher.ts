// One file: a batch's loop and its failure paths (retry, savepoints next, commit early) are one transaction's control flow.
import type { Kysely } from 'kysely';
import { transaction, type SqlDialect } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';
import { DeadlinePassed, transactBefore } from './deadline.js';
import { rollBackAfter } from './rehearsal.js';
import {
  COMMIT_GUARD_MS,
  DEADLOCK_RETRIES,
  expired,
  isDeadlock,
  POSTGRES_MAX_BARE_BATCH,
  POSTGRES_MAX_BATCH,
  SAVEPOINT_BATCHES_AFTER_A_FAILURE,
  runBare,
  runDeferring,
  runInSavepoint,
  WAITING,
  type BatchClosing,
  type BatchNotice,
  type BatchOpening,
  type Deferred,
  type Job,
  type Outcome,
  type UnitWork,
} from './batch-units.js';

export type { BatchClosing, BatchNotice, BatchOpening, Defer, UnitWork } from './batch-units.js';

/**
 * Group commit: units of work that arrive while a commit is in progress are run together in ONE
 * transaction. A unit that fails leaves nothing of itself (its caller gets the error); the others
 * commit together, and every caller is answered only after that commit. If the commit itself
 * fails, every caller in the batch gets the error and nothing of the batch is written. Per event
 * this keeps "all or nothing"; it only shares the commit (measured on SQLite: the commit's WAL
 * write was ~40 % of an earn; on PostgreSQL the BEGIN/COMMIT round trips and the commit's WAL
 * flush, see docs/benchmarks.md).
 *
 * Savepoints only after a failure: units seldom fail (an earn that fails is a bug, a misconfigured
 * card or a deadline), so a batch first runs its units without savepoints. If one fails, the whole
 * batch is rolled back, that unit gets its error, the others run again at once, and the next
 * SAVEPOINT_BATCHES_AFTER_A_FAILURE batches run each unit inside its own SAVEPOINT, which a failing
 * unit is rolled back to alone. (A SAVEPOINT is a round trip per unit on PostgreSQL and a
 * subtransaction in the server.) A batch without savepoints may open with one statement for all
 * its units (BatchOpening) and close with one for the writes they defer to it (BatchClosing): on
 * PostgreSQL a batch of n earns is then four round trips, not n + 3.
 *
 * On SQLite one batcher serialises every write (one connection does anyway). On PostgreSQL the
 * engine runs one batcher per lane (`GroupCommit`; POSTGRES_LANES, one by default), one
 * transaction on one pooled connection each; row locks taken by one batch's units are held until
 * its commit, so units are run in the order of their keys (see run), and a unit that a deadlock
 * still picks as its victim is rolled back (with its batch, or to its savepoint) and run again.
 *
 * Deadlines: a unit whose deadline passed while it waited is not run; a unit whose deadline passes
 * while it runs fails like any unit (checked as its work ends); its caller gets DeadlinePassed
 * either way. A released unit waits only for the commit: before each next unit runs, a batch
 * holding a released unit whose deadline is closer than the longest unit so far (plus
 * COMMIT_GUARD_MS) commits at once, and the units not yet run go to the next batch. What remains
 * is the commit itself, part of the residual race the HTTP client's safety margin covers
 * (docs/engine-service.md).
 */
export class TransactionBatcher {
  private queue: Job[] = [];
  private running = false;
  /** Batches still to run with a savepoint per unit (after a unit failed in a batch without them). */
  private savepointBatches = 0;
  /** Units per batch with a savepoint each, and without (see POSTGRES_MAX_BATCH). */
  private readonly maxBatch: number;
  private readonly maxBareBatch: number;

  constructor(
    private readonly db: Kysely<EngineTables>,
    private readonly dialect: SqlDialect = 'sqlite',
    maxBatch?: number,
    private readonly opening?: BatchOpening,
    private readonly onNotice?: (notice: BatchNotice) => void,
    private readonly closing?: BatchClosing,
  ) {
    this.maxBatch = maxBatch ?? (dialect === 'postgres' ? POSTGRES_MAX_BATCH : 64);
    this.maxBareBatch = maxBatch ?? (dialect === 'postgres' ? POSTGRES_MAX_BARE_BATCH : 64);
  }

  /**
   * Run `work` as one unit of the next batch. `key` names what the unit will lock (on PostgreSQL:
   * the member whose wallet it credits); a batch runs its units in the order of their keys, so two
   * batches on different connections take their row locks in one order and never wait on each
   * other in a cycle.
   */
  run<T>(work: UnitWork<T>, deadline?: number, key = '', opening?: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        work,
        opening,
        opened: undefined,
        key,
        retries: 0,
        deadline,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /**
   * Run `work` in a transaction of its own that is always rolled back, answering what it returned
   * (a preview: rehearsal.ts), in this batcher's turn: after the batch it was queued with commits,
   * before the next one. On SQLite's one connection this is what keeps rehearsals and batches
   * fair: taking the connection beside the batcher, a stream of previews starved the earns
   * (measured: 4 earns/s instead of 10,000 with 8 previews in flight, bench/preview-impact.ts).
   */
  rehearse<T>(work: UnitWork<T>, deadline?: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        work,
        opening: undefined,
        opened: undefined,
        key: '',
        retries: 0,
        deadline,
        rehearsal: true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await this.flush(this.queue.splice(0, this.savepointBatches > 0 ? this.maxBatch : this.maxBareBatch));
    }
    this.running = false;
  }

  /** The units queued together: the batch, then each rehearsal among them on its own (see rehearse). */
  private async flush(queued: Job[]): Promise<void> {
    const rehearsals = queued.filter((job) => job.rehearsal === true);
    await this.commitBatch(rehearsals.length === 0 ? queued : queued.filter((job) => job.rehearsal !== true));
    for (const job of rehearsals) {
      if (expired(job)) continue;
      await rollBackAfter(this.db, job.work, job.deadline).then(job.resolve, job.reject);
    }
  }

  private async commitBatch(queued: Job[]): Promise<void> {
    const batch = queued.filter((job) => !expired(job));
    if (batch.length === 0) return;
    if (batch.length === 1) {
      const job = batch[0]!;
      await transactBefore(this.db, job.deadline, job.work).then(job.resolve, (error: unknown) => this.failed(job, error));
      return;
    }
    if (this.dialect === 'postgres') batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const savepoints = this.savepointBatches > 0;
    if (savepoints) this.savepointBatches--;
    const opening = savepoints || !this.opening ? [] : batch.filter((job) => job.opening !== undefined);
    // Units defer to the closing statement only in a batch that opened with one.
    const closing = opening.length > 0 ? this.closing : undefined;
    const outcomes: Outcome[] = [];
    const deferrals: Deferred[] = [];
    let deferred = batch.length; // from here on, units left for the next batch (a deadline was near)
    try {
      await transaction(this.db, async (trx) => {
        try {
          if (opening.length > 0) {
            const opened = await this.opening!(
              trx,
              opening.map((job) => job.opening),
            ).catch((error: unknown) => {
              this.notify('batch-opening-failed', opening.length, error);
              throw OPENING_FAILED;
            });
            opening.forEach((job, i) => (job.opened = opened[i]));
          }
          let commitBy = Number.POSITIVE_INFINITY; // the earliest deadline of a released unit
          let longest = 0; // the longest unit so far: what running one more may take
          for (const [i, job] of batch.entries()) {
            const started = Date.now();
            if (started + longest >= commitBy - COMMIT_GUARD_MS) {
              deferred = i;
              break;
            }
            if (job.deadline !== undefined && started >= job.deadline) {
              outcomes.push({ ok: false, error: new DeadlinePassed('start', job.deadline) }); // not run: nothing to undo
              continue;
            }
            const ran = closing
              ? await runDeferring(trx, job, i)
              : savepoints
                ? await runInSavepoint(trx, job, this.dialect)
                : await runBare(trx, job);
            if ('resume' in ran) {
              deferrals.push(ran);
              outcomes.push(WAITING);
              continue;
            }
            outcomes.push(ran);
            if (!ran.ok && !savepoints) throw UNIT_FAILED;
            longest = Math.max(longest, Date.now() - started);
            if (ran.ok && job.deadline !== undefined) commitBy = Math.min(commitBy, job.deadline);
          }
          if (deferrals.length > 0) await this.close(trx, closing!, deferrals, outcomes, batch.length);
        } finally {
          // Units still waiting for the closing statement's output when the batch gave up: they
          // end (their outcome is dropped; they run again with the batch's other units).
          for (const deferral of deferrals) deferral.resume({ ok: false, error: ABANDONED });
        }
      });
    } catch (error) {
      if (error === OPENING_FAILED || error === CLOSING_FAILED) {
        // Rolled back (a deadlock between two batches' locks, say; a stamp card past its limit in
        // the closing statement): the units run again, first, in batches with savepoints, where
        // each opens and writes for itself.
        this.savepointBatches = SAVEPOINT_BATCHES_AFTER_A_FAILURE;
        this.queue.unshift(...batch);
        return;
      }
      if (error === UNIT_FAILED) {
        // Run without savepoints, one unit failed (the last outcome): the whole batch was rolled
        // back (nothing of it is written). That unit gets its error as it would have after its
        // savepoint's rollback (so do units not run for their deadline); the others run again,
        // first, and the next batches with a savepoint per unit.
        this.savepointBatches = SAVEPOINT_BATCHES_AFTER_A_FAILURE;
        this.queue.unshift(...batch.filter((_job, i) => i >= outcomes.length || outcomes[i]!.ok));
        outcomes.forEach((outcome, i) => {
          if (!outcome.ok) this.failed(batch[i]!, outcome.error);
        });
        return;
      }
      // The transaction failed (its COMMIT, or the connection under a unit): every unit of it gets
      // the error, also those it had not reached (on a lost connection, running them again at once
      // would only fail again); the callers retry idempotently.
      for (const job of batch.slice(0, deferred)) job.reject(error);
      this.queue.unshift(...batch.slice(deferred));
      return;
    } finally {
      for (const job of opening) job.opened = undefined;
    }
    // Units not run because a released unit's deadline was near: first in the next batch.
    this.queue.unshift(...batch.slice(outcomes.length));
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) batch[i]!.resolve(outcome.value);
      else this.failed(batch[i]!, outcome.error);
    });
  }

  /**
   * The batch's closing statement for the units that deferred to it, then each of them run on to
   * its end, one at a time in the batch's order (their outcomes replace WAITING in `outcomes`).
   */
  private async close(trx: Tx, closing: BatchClosing, deferrals: Deferred[], outcomes: Outcome[], units: number): Promise<void> {
    const outputs = await closing(
      trx,
      deferrals.map((deferral) => deferral.input),
    ).catch((error: unknown) => {
      this.notify('batch-closing-failed', units, error);
      throw CLOSING_FAILED;
    });
    for (const [k, deferral] of deferrals.entries()) {
      deferral.resume({ ok: true, value: outputs[k] });
      const outcome = await deferral.settled;
      outcomes[deferral.index] = outcome;
      if (!outcome.ok) throw UNIT_FAILED;
    }
  }

  private notify(event: BatchNotice['event'], units: number, error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.onNotice?.({
      event,
      units,
      error: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : undefined,
    });
  }

  /**
   * A unit chosen as a deadlock's victim (PostgreSQL; two writers of the same rows that locked
   * them in different orders, e.g. one member named by two identifiers) was rolled back (to its
   * savepoint, or with its batch): it runs again in the next batch, a few times, before its caller gets the error.
   */
  private failed(job: Job, error: unknown): void {
    if (isDeadlock(error) && job.retries < DEADLOCK_RETRIES) {
      job.retries++;
      this.queue.unshift(job);
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
      return;
    }
    job.reject(error);
  }
}

/** Thrown inside a batch's transaction to roll all of it back (see flush). */
const UNIT_FAILED = Symbol('a unit of a batch without savepoints failed');
const OPENING_FAILED = Symbol("a batch's opening statement failed");
const CLOSING_FAILED = Symbol("a batch's closing statement failed");

/** What a unit waiting for a closing statement that will not come is answered with (see flush). */
const ABANDONED = Symbol('the batch was rolled back before its closing statement answered');
