/**
 * A bench-only target that isolates the gateway's HTTP path: the real app (v1 auth over the raw
 * bytes, connection lookup from the real SQLite store, zod envelope validation, idempotency cache,
 * rate limit, request log) in front of an engine that commits nothing and answers a fixed earn.
 * The difference between this and the full target is the cost of the durable ledger.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EarnOutcome, LoyaltyEngine } from '@loyalty-gateway/core';
import { createDatabase, migrate } from '@loyalty-gateway/storage';
import {
  buildApp,
  createGatewayLogging,
  createGatewayStore,
  createMemoryIdempotencyCache,
  gatewayMigrations,
} from '@loyalty-gateway/gateway';
import { SECRET, STORE } from './signed-load.js';

const unused = () => Promise.reject(new Error('not used by this benchmark'));
const outcome: EarnOutcome = { status: 'processed', membershipId: 'MBR-BENCH', pointsEarned: 12, stampsUpdated: [], warning: null };
const nullEngine: LoyaltyEngine = {
  earn: async () => outcome,
  raiseSale: unused,
  previewEarn: unused,
  reverse: unused,
  withdrawRefunds: unused,
  eligibility: unused,
  redeem: unused,
  catalogSync: unused,
  findOutlet: unused,
  reversedOrders: unused,
  listMerchants: unused,
  ping: async () => undefined,
  close: async () => undefined,
};

const database = createDatabase<any>({ sqliteFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'lg-bench-null-')), 'gateway.sqlite') });
await migrate(database.db, gatewayMigrations);
const store = await createGatewayStore({ database, masterKey: Buffer.alloc(32, 7) });
await store.ensureVendor({ slug: 'bench-pos', name: 'Bench POS', tier: 'generic' });
await store.ensureConnection({ vendor: 'bench-pos', storeId: STORE, merchantId: 'm-bench', outletId: 'o-bench', secret: SECRET });
// Logged as `npm start` logs: the redacting logger, and the request line's own.
const loggers = ({ logger, requestLine }: ReturnType<typeof createGatewayLogging>) => ({
  loggerInstance: logger,
  requestLineLogger: requestLine,
});
const app = await buildApp({
  engine: nullEngine,
  connections: store,
  idempotency: createMemoryIdempotencyCache(),
  rateLimit: { max: 100_000_000 },
  ...loggers(createGatewayLogging(process.env.LOG_LEVEL ?? 'info')),
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
