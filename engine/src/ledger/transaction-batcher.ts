import { CompiledQuery, type Kysely } from 'kysely';
import type { EngineTables } from '../db/schema.js';
import type { Tx } from './context.js';
import { DeadlinePassed, ensureBefore, transactBefore } from './deadline.js';

interface Job {
  work: (trx: Tx) => Promise<unknown>;
  /** Epoch ms past which this unit must not commit (see EngineCallOptions). */
  deadline: number | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite, where one connection serialises every write anyway: units of work that
 * arrive while a commit is in progress are run together in ONE transaction, each inside its own
 * SAVEPOINT. A unit that fails is rolled back to its savepoint alone (its caller gets the error);
 * the others commit together, and every caller is answered only after that commit. If the commit
 * itself fails, every caller in the batch gets the error and nothing of the batch is written.
 * Per event this keeps "all or nothing"; it only shares the commit (measured: the commit's WAL
 * write was ~40 % of an earn).
 *
 * Deadlines: a unit whose deadline passed while it waited is not run; a unit whose deadline passes
 * while it runs is rolled back to its savepoint alone (checked right before its RELEASE). Both
 * callers get DeadlinePassed. A released unit waits only for the commit: before each next unit
 * runs, a batch holding a released unit whose deadline is closer than the longest unit so far
 * (plus COMMIT_GUARD_MS) commits at once, and the units not yet run go to the next batch. What remains is the commit itself, part
 * of the residual race the HTTP client's safety margin covers (docs/engine-service.md).
 */
export class TransactionBatcher {
  private queue: Job[] = [];
  private running = false;

  constructor(
    private readonly db: Kysely<EngineTables>,
    private readonly maxBatch = 64,
  ) {}

  run<T>(work: (trx: Tx) => Promise<T>, deadline?: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, deadline, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.flush(this.queue.splice(0, this.maxBatch));
    this.running = false;
  }

  private async flush(queued: Job[]): Promise<void> {
    const batch = queued.filter((job) => !expired(job));
    if (batch.length === 0) return;
    if (batch.length === 1) {
      const job = batch[0]!;
      await transactBefore(this.db, job.deadline, job.work).then(job.resolve, job.reject);
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        let commitBy = Number.POSITIVE_INFINITY; // the earliest deadline of a released unit
        let longest = 0; // the longest unit so far: what running one more may take
        for (const job of batch) {
          const started = Date.now();
          if (started + longest >= commitBy - COMMIT_GUARD_MS) break;
          const outcome = await runInSavepoint(trx, job);
          outcomes.push(outcome);
          longest = Math.max(longest, Date.now() - started);
          if (outcome.ok && job.deadline !== undefined) commitBy = Math.min(commitBy, job.deadline);
        }
      });
    } catch (error) {
      for (const job of batch.slice(0, outcomes.length)) job.reject(error);
      this.queue.unshift(...batch.slice(outcomes.length));
      return;
    }
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) batch[i]!.resolve(outcome.value);
      else batch[i]!.reject(outcome.error);
    });
    // Units not run because a released unit's deadline was near: first in the next batch.
    this.queue.unshift(...batch.slice(outcomes.length));
  }
}

/** Time kept for the COMMIT itself when a released unit's deadline is near. */
const COMMIT_GUARD_MS = 5;

// Compiled once: these run three times per batched event, on the hot path.
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

/** A job whose deadline passed in the queue is answered at once and not run. */
function expired(job: Job): boolean {
  if (job.deadline === undefined || Date.now() < job.deadline) return false;
  job.reject(new DeadlinePassed('start', job.deadline));
  return true;
}

async function runInSavepoint(trx: Tx, job: Job): Promise<Outcome> {
  if (job.deadline !== undefined && Date.now() >= job.deadline) return { ok: false, error: new DeadlinePassed('start', job.deadline) };
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await job.work(trx);
    ensureBefore(job.deadline, 'commit');
    await trx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    return { ok: false, error };
  }
}
