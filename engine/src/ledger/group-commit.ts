import type { Kysely } from 'kysely';
import type { SqlDialect } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { BatchClosing, BatchNotice, BatchOpening, UnitWork } from './batch-units.js';
import { TransactionBatcher } from './transaction-batcher.js';

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
