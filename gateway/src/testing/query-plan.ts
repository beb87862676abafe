import { CompiledQuery, type Kysely } from 'kysely';

/**
 * Test support only: a query's plan as text (SQLite's `explain query plan`, PostgreSQL's
 * `explain`), for tests that pin which index a query reads. On PostgreSQL sequential scans are
 * priced out: a test's tables are tiny, and the planner would rightly read them whole.
 */
export async function queryPlan(db: Kysely<any>, dialect: 'sqlite' | 'postgres', query: CompiledQuery): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
    try {
      const rows = await connection.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
    }
  });
}
