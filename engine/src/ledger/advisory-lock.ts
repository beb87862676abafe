import { sql } from 'kysely';
import type { EngineContext, Tx } from './context.js';

/**
 * A PostgreSQL transaction-scoped advisory lock on (`lockClass`, the parts of a key): writers of
 * the same key run one at a time until their transaction ends. Nothing on SQLite, whose one
 * connection already serialises every writer.
 */
export async function advisoryXactLock(
  ctx: Pick<EngineContext, 'dialect'>,
  trx: Tx,
  lockClass: number,
  keyParts: readonly string[],
): Promise<void> {
  if (ctx.dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${advisoryKey(keyParts)}))`.execute(trx);
}

/** The text a key's parts are hashed from (hashtext): every taker of one lock must build it alike. */
export const advisoryKey = (keyParts: readonly string[]): string => JSON.stringify(keyParts);
