import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { IDS, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';
import { loadHoldings } from './member-holdings.js';

describe.each(testDialects())("a member's holdings on $name", ({ name }) => {
  let t: TestEngine;
  afterEach(async () => {
    await t.close();
  });

  it('hold issued rewards (available and used codes) and stamp cards, for every reward or for one', async () => {
    t = await openSeededEngine(name);
    // Six coffees: one completed card (5 stamps) and one stamp on the next; the discount's code used.
    await t.engine.earn(sale({ totalMinor: 6000, items: [line('Coffee', 6)], discountCodes: [{ code: 'LOYAL-7QX2' }] }));
    const { id } = await t.db.selectFrom('members').select('id').where('membership_id', '=', 'MBR-0001').executeTakeFirstOrThrow();
    const member = { id, membershipId: 'MBR-0001', balance: 1260, lifetimePoints: 60 };
    const all = await loadHoldings(t.db, member);
    expect(all).toEqual({
      balance: 1260,
      lifetimePoints: 60,
      instances: new Map([
        [IDS.discount, { available: 0, usedCodes: ['LOYAL-7QX2'] }],
        [IDS.freeItem, { available: 1, usedCodes: [] }],
      ]),
      stamps: new Map([[IDS.stamp, { total: 6, available: 1 }]]),
    });
    const stampOnly = await loadHoldings(t.db, member, IDS.stamp);
    expect([[...stampOnly.instances], [...stampOnly.stamps]]).toEqual([[], [[IDS.stamp, { total: 6, available: 1 }]]]);
    const discountOnly = await loadHoldings(t.db, member, IDS.discount);
    expect([[...discountOnly.instances], [...discountOnly.stamps]]).toEqual([
      [[IDS.discount, { available: 0, usedCodes: ['LOYAL-7QX2'] }]],
      [],
    ]);
    // A member with nothing issued and no stamps.
    const bob = await t.db.selectFrom('members').select('id').where('membership_id', '=', 'MBR-0002').executeTakeFirstOrThrow();
    const none = await loadHoldings(t.db, { id: bob.id, membershipId: 'MBR-0002', balance: 0, lifetimePoints: 0 });
    expect([none.instances.size, none.stamps.size]).toEqual([0, 0]);
  });
});

describe.runIf(testDialects().some((d) => d.name === 'postgres'))("a member's holdings on postgres", () => {
  let t: TestEngine;
  afterEach(async () => {
    await t.close();
  });

  it('are read by one named prepared statement: every eligibility and every reward redemption runs it', async () => {
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
    // One statement for every reward and one for one reward, each reading instances and stamp
    // cards together, prepared under the pool's names.
    const reads = prepared.filter((p) => /from "reward_instances"/.test(p.statement));
    expect(reads).toHaveLength(2);
    expect(reads.every((p) => /^lg_\d+$/.test(p.name) && /union all select .* from "balances"/.test(p.statement))).toBe(true);
  });
});
