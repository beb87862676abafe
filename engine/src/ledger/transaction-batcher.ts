import { CompiledQuery, type Kysely } from 'kysely';
import { runQuery, transaction, type SqlDialect } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';
import { DeadlinePassed, ensureBefore, transactBefore } from './deadline.js';
import { rollBackAfter } from './rehearsal.js';

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

/**
 * Given to a unit of a batch that opened with one statement and has a closing one: the unit hands
 * its input to the closing statement and waits for its output. The batch goes on with its next
 * unit meanwhile; once every unit has run up to its deferral (or to its end), the closing
 * statement runs, and the deferring units then resume one at a time, in the batch's order. A unit
 * defers at most once.
 */
export type Defer = (input: unknown) => Promise<unknown>;

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

interface Job {
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

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A unit that deferred its input to the batch's closing statement (see Defer), waiting for its output. */
interface Deferred {
  /** The unit's place in the batch. */
  index: number;
  input: unknown;
  /** Hands the unit its output (or an error) and lets it run on. */
  resume: (result: Outcome) => void;
  /** The unit's outcome, once it has run on to its end. */
  settled: Promise<Outcome>;
}

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

const DEADLOCK_RETRIES = 3;

const isDeadlock = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '40P01';

/**
 * Units per batch on PostgreSQL: in a batch with savepoints each unit is a subtransaction, and a
 * backend keeps the ids of at most 64 of them in shared memory; past that every other session's
 * snapshot must look them up in pg_subtrans (the "suboverflow" slowdown).
 */
const POSTGRES_MAX_BATCH = 32;

/**
 * Units per batch on PostgreSQL without savepoints (the usual batch): no subtransactions, so the
 * bound above does not apply. A lane then earns up to this many sales per four round trips and a
 * commit; the bound keeps the opening and closing statements' JSON, and a batch's work that a
 * failing unit makes run again, moderate.
 */
const POSTGRES_MAX_BARE_BATCH = 128;

/** Time kept for the COMMIT itself when a released unit's deadline is near. */
const COMMIT_GUARD_MS = 5;

// Compiled once: in a batch with savepoints these run with every unit.
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

/** A job whose deadline passed in the queue is answered at once and not run. */
function expired(job: Job): boolean {
  if (job.deadline === undefined || Date.now() < job.deadline) return false;
  job.reject(new DeadlinePassed('start', job.deadline));
  return true;
}

/** Thrown inside a batch's transaction to roll all of it back (see flush). */
const UNIT_FAILED = Symbol('a unit of a batch without savepoints failed');
const OPENING_FAILED = Symbol("a batch's opening statement failed");
const CLOSING_FAILED = Symbol("a batch's closing statement failed");

/** What a unit waiting for a closing statement that will not come is answered with (see flush). */
const ABANDONED = Symbol('the batch was rolled back before its closing statement answered');

/** The outcome kept in a deferring unit's place until it has run on (an ok one, so it runs again if the batch fails first). */
const WAITING: Outcome = Object.freeze({ ok: true, value: undefined });

/**
 * After a unit failed in a batch without savepoints, this many batches run with a savepoint per
 * unit: the units that were rolled back with it, and a stream of failing events, are not run twice
 * each time.
 */
const SAVEPOINT_BATCHES_AFTER_A_FAILURE = 8;

/** A unit of a batch without savepoints: its failure must roll back the whole batch (see flush). */
async function runBare(trx: Tx, job: Job, defer?: Defer): Promise<Outcome> {
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
function runDeferring(trx: Tx, job: Job, index: number): Promise<Outcome | Deferred> {
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

async function runInSavepoint(trx: Tx, job: Job, dialect: SqlDialect): Promise<Outcome> {
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

/**
 * The group commit an engine runs on: one batcher on SQLite; on PostgreSQL `lanes` batchers, each
 * unit sent to the lane its key hashes to, so the units of one member (the same key) always meet
 * in one lane and never wait for each other's commit on two connections of this process.
 */
export class GroupCommit {
  private readonly lanes: TransactionBatcher[];

  constructor(
    db: Kysely<EngineTables>,
    dialect: SqlDialect,
    lanes?: number,
    opening?: BatchOpening,
    onNotice?: (notice: BatchNotice) => void,
    closing?: BatchClosing,
  ) {
    const count = dialect === 'postgres' ? Math.max(1, lanes ?? POSTGRES_LANES) : 1;
    this.lanes = Array.from({ length: count }, () => new TransactionBatcher(db, dialect, undefined, opening, onNotice, closing));
  }

  run<T>(work: UnitWork<T>, deadline?: number, key = '', opening?: unknown): Promise<T> {
    const lane = this.lanes.length === 1 ? this.lanes[0]! : this.lanes[laneOf(key, this.lanes.length)]!;
    return lane.run(work, deadline, key, opening);
  }

  /** A rehearsal (rehearsal.ts) in the turn of the lane its key hashes to, between that lane's batches. */
  rehearse<T>(work: UnitWork<T>, deadline?: number, key = ''): Promise<T> {
    const lane = this.lanes.length === 1 ? this.lanes[0]! : this.lanes[laneOf(key, this.lanes.length)]!;
    return lane.rehearse(work, deadline);
  }
}

/**
 * Batchers side by side on PostgreSQL (each holds one pooled connection while it runs a batch).
 * Fewer lanes make larger batches: fewer BEGIN / opening / closing / COMMIT statements per earn,
 * but fewer transactions in flight. Since a batch of new sales is four round trips whatever its
 * size (the closing statement), one lane is the default: measured with `engine/bench/earn-pg.ts`,
 * two alternated pairs, 1 lane against 2: 6,631 / 6,072 against 4,910 / 3,670 earns/s, node CPU
 * per earn 60–65 against 89–122 µs, the backends' 122–134 against 213–309 µs; and the whole
 * PostgreSQL round (two gateway processes): 2,155 / 2,154 against 1,650 / 1,874 earn/s, p99 81
 * against 94–98 ms (docs/benchmarks.md). A lane's throughput is bounded by 32 sales (a batch) per
 * four round trips and a commit; across a slow network, raise it (GATEWAY_COMMIT_LANES).
 */
export const POSTGRES_LANES = 1;

function laneOf(key: string, lanes: number): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return (hash >>> 0) % lanes;
}
