import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import { AUTOVACUUM_OFF, warnWithoutAutovacuum } from './autovacuum.js';
import { canRunThrowawayPostgres, startThrowawayPostgres } from './testing/throwaway-postgres.js';

const warningsOf = async (database: ReturnType<typeof createDatabase<any>>) => {
  const warned: string[] = [];
  await warnWithoutAutovacuum(database, (message) => warned.push(message));
  return warned;
};

describe("warnWithoutAutovacuum: the PostgreSQL server's autovacuum, checked at start", () => {
  it('SQLite: nothing to check, nothing warned', async () => {
    const database = createDatabase<any>({ sqliteFile: ':memory:' });
    try {
      expect(await warningsOf(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  describe.skipIf(!canRunThrowawayPostgres())('on a server started with each setting', () => {
    it.each([
      ['off', { autovacuum: 'off' }, [AUTOVACUUM_OFF]],
      ['off through track_counts (autovacuum needs it)', { track_counts: 'off' }, [AUTOVACUUM_OFF]],
      ['on (the default)', {}, []],
    ])(
      '%s: warned once as the operator must act on it, or not at all',
      async (_name, settings, warnings) => {
        const server = await startThrowawayPostgres(settings);
        const database = createDatabase<any>({ postgresUrl: server.url });
        try {
          expect(await warningsOf(database)).toEqual(warnings);
        } finally {
          await database.close();
          server.destroy();
        }
      },
      30_000,
    );

    it('a server that cannot be asked does not stop the start: no warning, no error (the check is advice)', async () => {
      const server = await startThrowawayPostgres({ autovacuum: 'off' });
      const database = createDatabase<any>({ postgresUrl: server.url });
      try {
        server.stop();
        expect(await warningsOf(database)).toEqual([]);
      } finally {
        await database.close();
        server.destroy();
      }
    }, 30_000);
  });
});
