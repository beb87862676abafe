import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { quietLogger, sharedDatabase } from '../testing/catalog-world.js';
import { migrate } from '@loyalty-gateway/storage';
import { createGatewayStore, gatewayMigrations, type GatewayStore } from '../stores/index.js';
import { watchVendorChanges, type VendorChanges } from './watch-vendor-changes.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(dialects)('watchVendorChanges: settings written by another process reach this one (%s)', (dialect) => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let writer: GatewayStore; // "process A": the admin API that wrote
  let reader: GatewayStore; // "process B": its vendor cache holds a copy for 300 ms
  let changes: VendorChanges | undefined;
  beforeEach(async () => {
    shared = await sharedDatabase(dialect);
    const masterKey = randomBytes(32);
    const first = shared.open();
    await migrate(first.db, gatewayMigrations);
    writer = await createGatewayStore({ database: first, masterKey });
    reader = await createGatewayStore({ database: shared.open(), masterKey, cacheTtlMs: 300 });
    await writer.upsertVendor({ slug: 'clover', name: 'Clover', tier: 'featured', settings: { authCode: 'a' } });
  });
  afterEach(async () => {
    changes?.stop();
    await shared.close();
  });

  it("polls the registry and runs the listeners again once the reader's cached copy has expired", async () => {
    changes = watchVendorChanges({ store: reader, log: quietLogger(), intervalMs: 50, settleMs: 400 });
    await changes.start(); // the baseline: the starting state runs nothing
    const seen: unknown[] = [];
    changes.subscribe(async () => {
      seen.push((await reader.getVendor('clover'))?.settings?.authCode);
    });
    expect((await reader.getVendor('clover'))?.settings).toEqual({ authCode: 'a' }); // cached in B now
    await new Promise((r) => setTimeout(r, 120));
    expect(seen).toEqual([]);

    await writer.setVendorSettings('clover', { authCode: 'b' });
    // The poll's run may read B's stale copy; the settle run, after the cache expired, reads the new one.
    await vi.waitFor(() => expect(seen.at(-1)).toBe('b'), { timeout: 3_000, interval: 50 });
    const runs = seen.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(seen).toHaveLength(runs); // nothing changed since: no more runs

    await writer.setVendorTier('clover', 'generic');
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(runs), { timeout: 3_000, interval: 50 });
  });

  it('changed() runs the listeners at once, one run at a time; a failing listener is logged and the next change runs again', async () => {
    const errors: unknown[] = [];
    changes = watchVendorChanges({ store: reader, log: { error: (...args: unknown[]) => void errors.push(args) }, intervalMs: 60_000 });
    let active = 0;
    let most = 0;
    let calls = 0;
    changes.subscribe(async () => {
      calls += 1;
      active += 1;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 20));
      active -= 1;
      if (calls === 1) throw new Error('first run fails');
    });
    changes.changed();
    changes.changed();
    changes.changed();
    await changes.idle();
    expect(calls).toBe(3);
    expect(most).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('reads nothing until start(), and nothing after stop()', async () => {
    let lists = 0;
    const counted = { listVendors: () => ((lists += 1), reader.listVendors()) };
    changes = watchVendorChanges({ store: counted, log: quietLogger(), intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 100));
    expect(lists).toBe(0);
    changes.subscribe(() => undefined);
    await new Promise((r) => setTimeout(r, 60));
    expect(lists).toBe(0);
    await changes.start();
    expect(lists).toBe(1);
    await vi.waitFor(() => expect(lists).toBeGreaterThan(1), { timeout: 1_000, interval: 20 });
    changes.stop();
    const after = lists;
    await new Promise((r) => setTimeout(r, 100));
    expect(lists).toBe(after);
  });

  it('a registry slower than the interval never has two polls in flight (stacked polls would let a stale one undo a newer one)', async () => {
    let inFlight = 0;
    let most = 0;
    let lists = 0;
    const slow = {
      listVendors: async () => {
        lists += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 150));
        inFlight -= 1;
        return reader.listVendors();
      },
    };
    changes = watchVendorChanges({ store: slow, log: quietLogger(), intervalMs: 20 });
    await changes.start();
    await vi.waitFor(() => expect(lists).toBeGreaterThanOrEqual(4), { timeout: 3_000, interval: 20 });
    expect(most).toBe(1);
  });
});
