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
 * callers get DeadlinePassed. A released unit commits with the batch a few ms later: that window
 * is part of the residual race the HTTP client's safety margin covers (docs/engine-service.md).
 */
export class TransactionBatcher {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: Kysely<EngineTables>, private readonly maxBatch = 64) {}

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
        for (const job of batch) outcomes.push(await runInSavepoint(trx, job));
      });
    } catch (error) {
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}

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
