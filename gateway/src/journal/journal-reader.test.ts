import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry } from '../testing/journal-entries.js';
import { createDeliveryJournal, type Delivery, type DeliveryFilter, type DeliveryJournal, type DeliveryPage } from './delivery-journal.js';
import { cursorAfter } from './journal-queries.js';

describe.each(testDialects())("the journal's list ($name)", ({ name }) => {
  it('a filter no index serves searches at most searchWindow × searchWindows entries a page; following nextCursor finds every match, in order, once', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      searchWindow: 7,
      searchWindows: 3,
    });
    try {
      // 200 entries, several to a millisecond (the order's ties go by journal id); two stores, statuses 200, 401 and 500.
      const at = Date.UTC(2026, 10, 28, 3, 0, 0);
      const written = fc.sample(
        fc.record({
          dt: fc.integer({ min: 0, max: 3 }),
          store: fc.constantFrom('s-1', 's-2'),
          status: fc.constantFrom(200, 200, 200, 401, 500),
        }),
        { numRuns: 200, seed: 20261128 },
      );
      let time = at;
      for (const [n, w] of written.entries()) {
        time += w.dt;
        journal.record(
          journalEntry(n, new Date(time), {
            storeId: w.store,
            status: w.status,
            outcome: w.status === 200 ? 'processed' : `code-${w.status}`,
          }),
        );
      }
      await journal.flush();
      const everything = await allPages(journal, {}, 500);
      expect(everything.pages).toBe(1);
      const newestFirst = everything.deliveries;
      expect(newestFirst).toHaveLength(200);
      // No page of a scanning filter looks further back than 21 entries below its cursor.
      const filters = [
        { status: 500 },
        { store: 's-2', status: 401 },
        { code: 'code-401' },
        { vendor: 'acme-pos', limit: 4 },
        { store: 's-1', since: new Date(at + 100), until: new Date(at + 250) },
        { store: 'nowhere' },
      ];
      for (const filter of filters) {
        const expected = newestFirst.filter(
          (d) =>
            (filter.status === undefined || d.status === filter.status) &&
            (filter.store === undefined || d.storeId === filter.store) &&
            (filter.code === undefined || d.outcome === filter.code) &&
            (filter.since === undefined || Date.parse(d.receivedAt) >= filter.since.getTime()) &&
            (filter.until === undefined || Date.parse(d.receivedAt) < filter.until.getTime()),
        );
        const paged = await allPages(journal, filter, filter.limit ?? 5);
        expect(paged.deliveries.map((d) => d.id)).toEqual(expected.map((d) => d.id));
        for (const page of paged.each) {
          if (page.searchedBackTo === null) continue;
          // Stopped at its bound: its cursor is the 21st entry it examined (below its own cursor and `until`), and it examined no further.
          const oldestExamined = newestFirst.findIndex((d) => d.receivedAt === page.searchedBackTo && cursorAfter(d) === page.nextCursor);
          const firstExamined = Math.max(
            page.startIndex + 1,
            filter.until ? newestFirst.findIndex((d) => Date.parse(d.receivedAt) < filter.until!.getTime()) : 0,
          );
          expect(oldestExamined - firstExamined).toBe(20);
          expect(page.deliveries.length).toBeLessThanOrEqual(filter.limit ?? 5);
        }
      }
      // A store that never sent: an empty first page that says how far back it looked, and a way on.
      const first = await journal.list({ store: 'nowhere' });
      expect(first.deliveries).toEqual([]);
      expect(first.searchedBackTo).toBe(newestFirst[20]!.receivedAt);
      expect(first.nextCursor).toBe(cursorAfter(newestFirst[20]!));
      // Filters an index serves are answered in one statement, whole.
      expect((await journal.list({ connectionId: 'c-1', limit: 500 })).deliveries).toHaveLength(200);
      expect((await journal.list({ connectionId: 'c-1', status: 999 })).searchedBackTo).toBeNull();
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

describe.each(testDialects())("the journal's entries by request id ($name)", ({ name }) => {
  it('lists them newest first, those of one millisecond by journal id (the order they were journalled), as the list does', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      // Twelve entries reusing one request id, four to a millisecond, each millisecond's journalled in turn.
      const at = Date.UTC(2026, 10, 30, 5, 0, 0);
      for (let n = 0; n < 12; n += 1)
        journal.record(
          journalEntry(n, new Date(at + Math.floor(n / 4)), {
            requestId: 'VENDOR-REQ-7',
            status: n === 5 ? 200 : 401,
            connectionId: n === 5 ? 'c-1' : `c-${n}`,
            vendor: `v-${n}`,
            authenticated: n === 5,
          }),
        );
      await journal.flush();
      const listed = (await journal.list({ requestId: 'VENDOR-REQ-7', limit: 50 })).deliveries;
      expect(listed.map((d) => d.vendor)).toEqual(Array.from({ length: 12 }, (_, n) => `v-${11 - n}`));
      const shown = await journal.get('VENDOR-REQ-7');
      expect(shown?.vendor).toBe('v-5');
      expect(shown?.matches.map((m) => m.vendor)).toEqual(listed.map((d) => d.vendor));
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

/** Every page of `filter`, following nextCursor: the deliveries in order, and each page with the index (in the whole list) its search started below. */
async function allPages(journal: DeliveryJournal, filter: DeliveryFilter, limit: number) {
  const whole = await journal.list({ limit: 500 });
  const position = (cursor: string | undefined) =>
    cursor === undefined ? -1 : whole.deliveries.findIndex((d) => cursorAfter(d) === cursor);
  const deliveries: Delivery[] = [];
  const each: Array<DeliveryPage & { startIndex: number }> = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await journal.list({ ...filter, limit, ...(cursor ? { cursor } : {}) });
    each.push({ ...page, startIndex: position(cursor) });
    deliveries.push(...page.deliveries);
    if (!page.nextCursor) return { deliveries, pages: each.length, each };
    if (each.length > 1000) throw new Error('the list did not end');
    cursor = page.nextCursor;
  }
}
