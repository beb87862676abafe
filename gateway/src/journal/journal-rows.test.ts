import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';

describe.each(testDialects())('a journal entry as its row and back ($name)', ({ name }) => {
  it('every field is read back as recorded, in batches of any size; a NUL character or a lone surrogate (which PostgreSQL cannot hold) does not cost the batch its entries', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const errors: unknown[] = [];
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000, onError: (e) => errors.push(e) });
    try {
      const at = Date.UTC(2026, 10, 27, 3, 0, 0);
      const odd = `quote ' "double" back\\slash \u00e9t\u00e9 \ud83d\ude00 {"json":[1]} \n line`;
      journal.record(
        journalEntry(0, new Date(at), {
          eventType: 'sale.completed',
          eventId: 'evt-0',
          transactionId: odd,
          refundId: 'r-1',
          status: 422,
          outcome: undefined,
          warning: 'a warning',
          fields: [{ path: 'transaction.total', message: 'must be > 0' }],
          durationMs: 12.6,
          skewSeconds: -3.4,
        }),
        Buffer.from('{"a":1}'),
      );
      journal.record(
        journalEntry(1, new Date(at + 1), {
          transactionId: 'nul\u0000inside',
          vendor: undefined,
          storeId: undefined,
          connectionId: undefined,
        }),
      );
      journal.record(
        journalEntry(2, new Date(at + 2), { transactionId: 'lone \ud800 surrogate', eventId: `${'x'.repeat(254)}\ud83d\ude00` }),
      );
      for (let n = 3; n < 450; n += 1) journal.record(journalEntry(n, new Date(at + n), { transactionId: `T-${n}` }));
      await journal.flush();
      expect(errors).toEqual([]);
      expect((await journal.list({ limit: 500 })).deliveries).toHaveLength(450);
      const first = (await journal.get('req-0'))!;
      expect(first).toMatchObject({
        requestId: 'req-0',
        receivedAt: new Date(at).toISOString(),
        method: 'POST',
        route: '/webhooks/generic',
        vendor: 'acme-pos',
        storeId: 's-1',
        connectionId: 'c-1',
        eventType: 'sale.completed',
        eventId: 'evt-0',
        transactionId: odd,
        refundId: 'r-1',
        status: 422,
        outcome: null,
        warning: 'a warning',
        fields: [{ path: 'transaction.total', message: 'must be > 0' }],
        durationMs: 13,
        skewSeconds: -3,
        bodySha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
        requestKept: false,
        replayOf: null,
        replayedBy: null,
      });
      expect(await journal.get('req-1')).toMatchObject({
        transactionId: 'nul\ufffdinside',
        vendor: null,
        storeId: null,
        connectionId: null,
      });
      expect(await journal.get('req-2')).toMatchObject({ transactionId: 'lone \ufffd surrogate', eventId: `${'x'.repeat(254)}\ufffd` });
      expect((await journal.list({ transactionId: 'T-449' })).deliveries.map((d) => d.requestId)).toEqual(['req-449']);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('a kept request is sealed at rest and opened only through the journal', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const body = Buffer.from('{"secret-ish":"card 4111"}');
      journal.record(journalEntry(1, new Date(), { status: 500, outcome: 'internal_error' }), body, {
        body,
        headers: { 'x-service-vendor': 'acme-pos' },
      });
      await journal.flush();
      const raw = await database.db.selectFrom('gw_deliveries').select('body_sealed').executeTakeFirstOrThrow();
      expect(raw.body_sealed).toMatch(/^v1:/);
      expect(raw.body_sealed).not.toContain('4111');
      expect((await journal.get('req-1'))?.request?.body.toString()).toBe(body.toString());
    } finally {
      await journal.close();
      await database.close();
    }
  });
});
