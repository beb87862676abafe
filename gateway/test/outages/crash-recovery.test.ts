import { rmSync } from 'node:fs';
import { createDatabase } from '@loyalty-gateway/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { exited, spawnGateway, sqliteGatewayFixture } from '../../src/testing/spawn-gateway.js';
import { STORE, VENDOR, refund, sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { memberBalance } from '../../src/testing/member-balance.js';

const { dir, env, engineFile } = sqliteGatewayFixture('lg-crash-', testSeedDocument(), 9);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => spawnGateway(env);

async function post(url: string, body: string): Promise<{ status: number; result?: string }> {
  const response = await fetch(`${url}/webhooks/generic`, { method: 'POST', headers: headersFor(body), body });
  return { status: response.status, result: response.status === 200 ? ((await response.json()) as { status: string }).status : undefined };
}

const balance = () => memberBalance({ sqliteFile: engineFile }, { vendor: VENDOR, storeId: STORE });

/** MBR-0001's ledger: entries per kind (count and points). */
async function ledger(): Promise<Record<string, { count: number; points: number }>> {
  const database = createDatabase<any>({ sqliteFile: engineFile });
  try {
    const rows = await database.db
      .selectFrom('ledger_entries as l')
      .innerJoin('members as m', 'm.id', 'l.member_id')
      .where('m.membership_id', '=', 'MBR-0001')
      .select(['l.kind', (eb: any) => eb.fn.countAll().as('count'), (eb: any) => eb.fn.sum('l.points').as('points')])
      .groupBy('l.kind')
      .execute();
    return Object.fromEntries(rows.map((r: any) => [r.kind, { count: Number(r.count), points: Number(r.points) }]));
  } finally {
    await database.close();
  }
}

/** Run `work` on `n` items with 8 concurrent workers until `stop()` says so; a reset by the kill is a retry for later. */
async function drive(n: number, work: (i: number) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n && !stop()) {
      const i = next++;
      try {
        await work(i);
      } catch {
        // connection reset by the kill: the vendor will retry this one
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

describe('kill -9 during traffic, restart on the same data dir', () => {
  it('every sale counts exactly once; nothing answered 200 is lost', async () => {
    const sales = Array.from({ length: 400 }, (_, i) => JSON.stringify(sale({ id: `CRASH-${i}`, total: 1 })));
    const first = await start();
    const okBeforeKill = new Set<number>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < sales.length && !killed) {
        const i = next++;
        try {
          const { status } = await post(first.url, sales[i]!);
          if (status === 200) okBeforeKill.add(i);
          if (okBeforeKill.size >= 120 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // connection reset by the kill: the vendor will retry this one
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await exited(first.child);
    expect(killed).toBe(true);
    expect(okBeforeKill.size).toBeGreaterThanOrEqual(120);
    expect(okBeforeKill.size).toBeLessThan(sales.length);

    const second = await start();
    try {
      const results = [];
      for (let i = 0; i < sales.length; i += 1) results.push(await post(second.url, sales[i]!));
      expect(results.every((r) => r.status === 200)).toBe(true);
      // Every sale answered 200 before the kill is in the ledger: its retry is a duplicate.
      for (const i of okBeforeKill) expect(results[i]!.result, `sale ${i}`).toBe('duplicate');
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
    // 1 point per sale, each exactly once (seeded balance 1200).
    expect(await balance()).toBe(1200 + sales.length);
  }, 120_000);

  it('with refunds in flight: nothing reversed twice, nothing lost', async () => {
    // 300 sales of 10.00 (10 points each), each followed by a partial refund of 4.00 (4 points back).
    const n = 300;
    const sales = Array.from({ length: n }, (_, i) => JSON.stringify(sale({ id: `RF-SALE-${i}`, total: 10 })));
    const refunds = Array.from({ length: n }, (_, i) => JSON.stringify(refund(`RF-SALE-${i}`, `RF-REFUND-${i}`, 4)));
    const before = await balance();
    const first = await start();
    const refundedBeforeKill = new Set<number>();
    let killed = false;
    await drive(
      n,
      async (i) => {
        const sold = await post(first.url, sales[i]!);
        if (sold.status !== 200 || killed) return;
        const { status } = await post(first.url, refunds[i]!);
        if (status === 200) refundedBeforeKill.add(i);
        if (refundedBeforeKill.size >= 100 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    await exited(first.child);
    expect(killed).toBe(true);
    expect(refundedBeforeKill.size).toBeGreaterThanOrEqual(100);
    expect(refundedBeforeKill.size).toBeLessThan(n);

    // The vendor retries everything: sales first, then refunds.
    const second = await start();
    try {
      for (const body of sales) expect((await post(second.url, body)).status).toBe(200);
      const results = [];
      for (const body of refunds) results.push(await post(second.url, body));
      expect(results.every((r) => r.status === 200)).toBe(true);
      // Every refund answered 200 before the kill is in the ledger: its retry is a duplicate.
      for (const i of refundedBeforeKill) expect(results[i]!.result, `refund ${i}`).toBe('duplicate');
      // The rest are processed now, or duplicate when committed just before the kill without the answer getting out.
      expect(results.every((r) => r.result === 'processed' || r.result === 'duplicate')).toBe(true);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
    // Each sale earned 10 once and each refund reversed 4 once.
    expect(await balance()).toBe(before + n * (10 - 4));
    const entries = await ledger();
    expect(entries.reverse).toEqual({ count: n, points: -4 * n });
    expect(Object.values(entries).reduce((sum, e) => sum + e.points, 0)).toBe(await balance());
  }, 180_000);
});
