import { randomBytes } from 'node:crypto';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import { openTestDatabase } from '@loyalty-gateway/storage/testing';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { createGatewayStore, type GatewayStoreOptions } from '../stores/sql-gateway-store.js';
import type { GatewayStore } from '../stores/gateway-store-types.js';

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(at: Date) {
      now = at.getTime();
    },
  };
}

export interface TestStore {
  store: GatewayStore;
  database: SqlDatabase<any>;
  masterKey: Buffer;
  clock: ReturnType<typeof manualClock>;
  /** Another store instance on the same database (another gateway process). */
  another(options?: Partial<GatewayStoreOptions>): Promise<GatewayStore>;
  close(): Promise<void>;
}

/** Test support only: a fresh, migrated database of that dialect, a random master key and a manual clock. */
export async function openTestStore(dialect: 'sqlite' | 'postgres', options: Partial<GatewayStoreOptions> = {}): Promise<TestStore> {
  const database = await openTestDatabase<any>(dialect, gatewayMigrations);
  const masterKey = randomBytes(32);
  const clock = manualClock();
  const make = (extra: Partial<GatewayStoreOptions> = {}) =>
    createGatewayStore({ database, masterKey, clock: clock.now, ...options, ...extra });
  const store = await make();
  const others: GatewayStore[] = [];
  return {
    store,
    database,
    masterKey,
    clock,
    async another(extra) {
      const other = await make(extra);
      others.push(other);
      return other;
    },
    async close() {
      await Promise.all([store, ...others].map((s) => s.close()));
      await database.close();
    },
  };
}

export const acme = { slug: 'acme-pos', name: 'Acme POS', tier: 'generic' as const };
export const connectionFor = (storeId: string, secret?: string) => ({
  vendor: acme.slug,
  storeId,
  merchantId: 'm-bean',
  outletId: 'o-downtown',
  ...(secret === undefined ? {} : { secret }),
});
