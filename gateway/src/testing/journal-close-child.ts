/**
 * A child process for journal-writer.test.ts: a journal on a SQLite file (its writer thread),
 * ENTRIES entries recorded, then `close()` as the last thing the process waits for (as in a
 * gateway's shutdown once its listeners are closed). Prints how many entries the file then holds.
 */
import { randomBytes } from 'node:crypto';
import { createDatabase, migrate } from '@loyalty-gateway/storage';
import { createDeliveryJournal } from '../journal/index.js';
import { gatewayMigrations } from '../stores/gateway-migrations.js';

const file = process.env.JOURNAL_FILE!;
const database = createDatabase<any>({ sqliteFile: file });
await migrate(database.db, gatewayMigrations);
const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), sqliteFile: file, flushMs: 60_000 });
const entries = Number(process.env.ENTRIES ?? 100);
for (let n = 0; n < entries; n += 1)
  journal.record({ requestId: `req-${n}`, receivedAt: new Date(), method: 'POST', route: '/webhooks/generic', status: 200, durationMs: 1 });
await journal.close();
const { n } = await database.db
  .selectFrom('gw_deliveries')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
console.log(`closed with ${Number(n)} entries`);
await database.close();
