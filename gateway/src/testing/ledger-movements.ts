import { sql, type Kysely } from 'kysely';

/**
 * The ledger entry kinds by which events move members' points (earned, raised, reversed, given
 * back, re-credited, taken back): what the answers to those events must account for, to the point.
 */
const MOVEMENTS = ['earn', 'raise', 'reverse', 'withdraw', 'recredit', 'redebit'] as const;

/** The points of one result of a webhook's answer. */
export interface AnsweredResult {
  status: string;
  pointsEarned?: number;
  pointsReversed?: number;
  pointsReCredited?: number;
  pointsRestored?: number;
}

/** What an answer's results say moved: only `processed` results move points (a duplicate's figures are the first answer's). */
export const acknowledgedBy = (results: AnsweredResult[]): number =>
  results.reduce(
    (sum, r) =>
      r.status === 'processed'
        ? sum + (r.pointsEarned ?? 0) - (r.pointsReversed ?? 0) + (r.pointsReCredited ?? 0) + (r.pointsRestored ?? 0)
        : sum,
    0,
  );

/** The points the ledger's entries of those kinds add up to, read straight from the engine's database. */
export async function pointsMoved(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ total: number | string }>`
    select coalesce(sum(points), 0) as total from ledger_entries where kind in (${sql.join([...MOVEMENTS])})
  `.execute(db);
  return Number(rows[0]!.total);
}
