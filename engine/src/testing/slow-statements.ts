import { setTimeout as sleep } from 'node:timers/promises';
import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { SqlDatabase } from '@loyalty-gateway/storage';

/** True when the operation tree names `table` anywhere (into, from, join, update target...). */
function names(node: unknown, table: string): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
  if (n.kind === 'TableNode' && n.table?.identifier?.name === table) return true;
  return Object.values(node).some((child) => names(child, table));
}

/**
 * Test-only: a slow database, not a mock. A Kysely plugin that delays the answer of every
 * query-builder statement naming a chosen table (asynchronously: the event loop keeps running, as
 * with a slow disk or a busy server). Statements compiled once (preparedQuery) are delayed too: on
 * a database with plugins they are built at each call and pass through them.
 * Usage: `const slow = new SlowStatements(); engine on slow.wrap(database); slow.set('redemptions', 300)`.
 */
export class SlowStatements implements KyselyPlugin {
  private readonly delays = new Map<string, { ms: number; left: number }>();
  private readonly slowed = new WeakMap<object, number>();

  /** Delay the next `times` statements naming `table` (all of them by default) by `ms`. */
  set(table: string, ms: number, times = Number.POSITIVE_INFINITY): this {
    this.delays.set(table, { ms, left: times });
    return this;
  }

  clear(): void {
    this.delays.clear();
  }

  /** The same database, every statement passing through this plugin. */
  wrap<DB>(database: SqlDatabase<DB>): SqlDatabase<DB> {
    return { ...database, db: database.db.withPlugin(this) };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    for (const [table, delay] of this.delays) {
      if (delay.left <= 0 || !names(args.node, table)) continue;
      delay.left -= 1;
      this.slowed.set(args.queryId, delay.ms);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const ms = this.slowed.get(args.queryId);
    if (ms !== undefined) await sleep(ms);
    return args.result;
  }
}

/**
 * Test-only, PostgreSQL: another transaction holds a member's wallet row (`FOR UPDATE`) for `ms`,
 * as a busy server would: the member's earns and redemptions wait on the row lock. Resolves once
 * the lock is held, with the holder's end.
 */
export async function holdWallet(db: Kysely<any>, membershipId: string, ms: number): Promise<{ released: Promise<void> }> {
  let locked!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  const released = db.transaction().execute(async (trx) => {
    await sql`select 1 from balances b join members m on m.id = b.member_id
      where m.membership_id = ${membershipId} and b.reward_id = '' for update of b`.execute(trx);
    locked();
    await sleep(ms);
  });
  await Promise.race([held, released]);
  return { released };
}
