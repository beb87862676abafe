import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { pruneToBudget, storedJournalBytes } from './byte-budget.js';
import { idFloor } from './journal-ids.js';

const HOUR = 60 * 60 * 1000;

describe.each(testDialects())('the byte budget reads the journal only when its storage passes the budget ($name)', ({ name }) => {
  it('a journal whose storage is within the budget is not read row by row: one statement for its stored size, no sums', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const db = database.db;
    try {
      const nowMs = Date.UTC(2026, 10, 28, 12, 0, 0);
      // 30 days of entries, one an hour: without the size check the pass sums them an hour a statement (720 sums).
      const values = Array.from({ length: 30 * 24 }, (_, n) => ({
        id: `${idFloor(nowMs - n * HOUR)}${String(n).padStart(4, '0')}`,
        request_id: `r-${n}`,
        received_at: nowMs - n * HOUR,
        method: 'POST',
        route: '/webhooks/generic',
        status: 200,
        outcome: 'processed',
        duration_ms: 1,
        size_bytes: 1_000,
      }));
      for (let i = 0; i < values.length; i += 100)
        await db
          .insertInto('gw_deliveries')
          .values(values.slice(i, i + 100))
          .execute();
      const statements: string[] = [];
      const run = async (query: CompiledQuery) => {
        statements.push(query.sql);
        return db.executeQuery(query) as Promise<{ rows: unknown[] }>;
      };
      const pass = { db, dialect: database.dialect, run, deleteBelow: async () => 0, nowMs };

      const stored = await storedJournalBytes(pass);
      expect(stored).toBeGreaterThan(30 * 24 * 100);
      expect(await pruneToBudget({ ...pass, maxBytes: 1024 * 1024 * 1024 })).toBe(0);
      expect(statements.filter((s) => /sum\(/i.test(s))).toEqual([]);
      expect(statements.length).toBeLessThanOrEqual(2);

      // Past the budget (its storage and its entries' sizes), the walk runs and deletes the oldest.
      statements.length = 0;
      let below: string | undefined;
      const removed = await pruneToBudget({
        ...pass,
        deleteBelow: async (id) => {
          below = id;
          return 1;
        },
        maxBytes: Math.min(stored - 1, 100_000),
      });
      expect(removed).toBe(1);
      expect(statements.some((s) => /sum\(/i.test(s))).toBe(true);
      expect(below! > idFloor(nowMs - 30 * 24 * HOUR)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
