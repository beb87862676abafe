import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { IDS, openSeededEngine, type TestEngine } from '../testing/fixture.js';
import { loadHoldings } from './member-holdings.js';

describe.runIf(testDialects().some((d) => d.name === 'postgres'))("a member's holdings on postgres", () => {
  let t: TestEngine;
  afterEach(async () => {
    await t.close();
  });

  it('are read by named prepared statements: every eligibility and every reward redemption runs them', async () => {
    t = await openSeededEngine('postgres');
    const { id } = await t.db.selectFrom('members').select('id').where('membership_id', '=', 'MBR-0001').executeTakeFirstOrThrow();
    const member = { id, membershipId: 'MBR-0001', balance: 1200, lifetimePoints: 0 };
    const { all, one, prepared } = await t.db.connection().execute(async (conn) => {
      const all = await loadHoldings(conn, member);
      const one = await loadHoldings(conn, member, IDS.discount);
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(conn);
      return { all, one, prepared: rows };
    });
    // The seed issued Ann one code of the discount reward and one of the free item, both available.
    expect(all.instances.get(IDS.discount)).toEqual({ available: 1, usedCodes: [] });
    expect(all.instances.get(IDS.freeItem)).toEqual({ available: 1, usedCodes: [] });
    expect([...one.instances.keys()]).toEqual([IDS.discount]);
    // Both reads, for every reward and for one: four statements prepared under the pool's names.
    const reads = prepared.filter((p) => /from "(reward_instances|balances)"/.test(p.statement));
    expect(reads).toHaveLength(4);
    expect(reads.every((p) => /^lg_\d+$/.test(p.name))).toBe(true);
  });
});
