import { describe, expect, it } from 'vitest';
import { openSeededEngine, sale } from '../testing/fixture.js';

describe('previews share the engine with earns', () => {
  it('on SQLite a stream of previews does not starve the earns (they take turns with the group commit)', async () => {
    const t = await openSeededEngine('sqlite');
    try {
      const until = performance.now() + 400;
      let earned = 0;
      let previewed = 0;
      const loop = (work: () => Promise<unknown>, count: () => void) =>
        (async () => {
          while (performance.now() < until) {
            await work();
            count();
          }
        })();
      await Promise.all([
        ...Array.from({ length: 8 }, () =>
          loop(
            () => t.engine.previewEarn(sale()),
            () => previewed++,
          ),
        ),
        ...Array.from({ length: 8 }, () =>
          loop(
            () => t.engine.earn(sale()),
            () => earned++,
          ),
        ),
      ]);
      // Beside the group commit (Kysely's connection lock, which wakes every waiter at once) the earns got
      // a handful a second against thousands of previews; in turn, about as many of each.
      expect(previewed).toBeGreaterThan(50);
      expect(earned).toBeGreaterThan(previewed / 4);
    } finally {
      await t.close();
    }
  });
});
