/**
 * The handler a team would write instead of adopting the gateway (issue 40): one Fastify route that
 * checks the v1 signature (base64 HMAC-SHA256 over `timestamp.rawBody`, as the generic door
 * documents), validates the envelope with zod and commits the sale row, the member's balance and a
 * ledger row in one SQLite transaction on the event loop (better-sqlite3, WAL, synchronous =
 * NORMAL, as the gateway's SQLite). A repeated transaction id is answered `duplicate` (the sales
 * table's primary key), so a retry never credits twice. Written plainly, without the gateway's
 * extras (no journal, idempotency cache, rate limit, stamp cards, durable worker thread, logging).
 *
 *   PORT=0 DATA_DIR=/tmp/x npx tsx bench/hand-written-server.ts
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { z } from 'zod';
import { SECRET, STORES } from './signed-load.js';

const db = new Database(process.env.DATA_DIR ? path.join(process.env.DATA_DIR, 'loyalty.sqlite') : ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  create table if not exists members (id text primary key, balance integer not null default 0);
  create table if not exists sales (
    store_id text not null, transaction_id text not null, member_id text not null references members (id),
    total_minor integer not null, points integer not null, created_at text not null,
    primary key (store_id, transaction_id)
  );
  create table if not exists ledger_entries (
    id integer primary key, member_id text not null references members (id), kind text not null,
    points integer not null, ref_id text not null, created_at text not null, unique (kind, ref_id)
  );
  insert or ignore into members (id, balance) values ('MBR-BENCH', 0);
`);

const insertSale = db.prepare(
  'insert into sales (store_id, transaction_id, member_id, total_minor, points, created_at) values (?, ?, ?, ?, ?, ?) on conflict do nothing',
);
const credit = db.prepare('update members set balance = balance + ? where id = ?');
const insertLedger = db.prepare("insert into ledger_entries (member_id, kind, points, ref_id, created_at) values (?, 'earn', ?, ?, ?)");
const memberExists = db.prepare('select 1 from members where id = ?').pluck();

/** One sale: false when its transaction id was already recorded. */
const earn = db.transaction((store: string, transactionId: string, member: string, totalMinor: number, points: number): boolean => {
  const now = new Date().toISOString();
  if (insertSale.run(store, transactionId, member, totalMinor, points, now).changes === 0) return false;
  credit.run(points, member);
  insertLedger.run(member, points, `${store}:${transactionId}`, now);
  return true;
});

const secrets = new Map(STORES.map((store) => [store, SECRET]));

const Envelope = z.object({
  eventId: z.string().min(1).max(255),
  eventType: z.enum(['sale.completed', 'sale.refunded', 'sale.voided']),
  occurredAt: z.iso.datetime({ offset: true }),
  store: z.object({ id: z.string().min(1).max(255) }),
  transaction: z.object({
    id: z.string().min(1).max(255),
    total: z.number().nonnegative(),
    currency: z.string().length(3),
    channel: z.string().max(64).optional(),
    customer: z.object({ type: z.enum(['membershipId', 'phone', 'email']), value: z.string().min(1).max(255) }),
    items: z
      .array(
        z.object({
          id: z.string().max(255),
          name: z.string().max(255),
          sku: z.string().max(255).optional(),
          quantity: z.number().positive(),
          unitPrice: z.number().nonnegative(),
        }),
      )
      .max(500),
  }),
});

function signatureValid(secret: string, timestamp: string, body: Buffer, header: string): boolean {
  if (!header.startsWith('v1=')) return false;
  const given = Buffer.from(header.slice(3), 'base64');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
// The signature covers the raw bytes: keep them, parse after checking it.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

app.post('/webhooks/generic', async (request, reply) => {
  const store = String(request.headers['x-service-store'] ?? '');
  const timestamp = String(request.headers['x-service-timestamp'] ?? '');
  const secret = secrets.get(store);
  const body = request.body as Buffer;
  if (
    secret === undefined ||
    !/^\d+$/.test(timestamp) ||
    Math.abs(Date.now() / 1000 - Number(timestamp)) > 300 ||
    !signatureValid(secret, timestamp, body, String(request.headers['x-service-signature'] ?? ''))
  ) {
    return reply.code(401).send({ error: 'invalid_signature' });
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return reply.code(400).send({ error: 'malformed_json' });
  }
  const parsed = Envelope.safeParse(json);
  if (!parsed.success) return reply.code(422).send({ error: 'validation_failed', issues: parsed.error.issues });
  const event = parsed.data;
  if (event.store.id !== store) return reply.code(400).send({ error: 'store_mismatch' });
  if (event.eventType !== 'sale.completed') return { status: 'ignored', warning: null };
  const member = event.transaction.customer.value;
  if (event.transaction.customer.type !== 'membershipId' || memberExists.get(member) === undefined) {
    return { status: 'no_member', membershipId: null, pointsEarned: 0, warning: 'unknown member' };
  }
  const totalMinor = Math.round(event.transaction.total * 100);
  const points = Math.floor(totalMinor / 100); // one point per whole unit of currency
  const recorded = earn(store, event.transaction.id, member, totalMinor, points);
  return { status: recorded ? 'processed' : 'duplicate', membershipId: member, pointsEarned: recorded ? points : 0, warning: null };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
