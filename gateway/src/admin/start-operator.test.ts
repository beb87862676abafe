import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { quietLogger } from '../scheduler/testing/catalog-world.js';
import { startOperatorSide } from './start-operator.js';
import { openOperatorApp } from './testing/open-operator-app.js';

describe('startOperatorSide', () => {
  it('a start-up that fails after polling and the scheduler began stops both, so neither keeps reading a store the caller then closes', async () => {
    const t = await openOperatorApp();
    try {
      let lists = 0;
      // A vendor whose settings cannot be read (another master key, a damaged row): the start-up report throws.
      const store = Object.assign(Object.create(t.store) as typeof t.store, {
        listVendors: () => ((lists += 1), t.store.listVendors()),
        getVendor: async () => {
          throw new Error('settings cannot be decrypted');
        },
      });
      const config = loadConfig({ GATEWAY_ENV: 'development', GATEWAY_SCHEDULER: 'on' });
      await expect(
        startOperatorSide({ config, store, engine: t.engine, database: t.database, notes: t.notes, log: quietLogger() }),
      ).rejects.toThrow('settings cannot be decrypted');
      const after = lists;
      await new Promise((resolve) => setTimeout(resolve, 5_500)); // past the 5 s poll interval
      expect(lists).toBe(after);
    } finally {
      await t.close();
    }
  }, 15_000);
});
