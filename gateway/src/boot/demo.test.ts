import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedHeaders } from '@loyalty-gateway/core';
import { createDatabase } from '@loyalty-gateway/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway } from '../start-gateway.js';
import { SECRET, STORE, VENDOR, sale, testSeedDocument } from '../testing/test-seed.js';
import { DEMO_CREDENTIALS_FILE, type DemoCredentials } from './demo.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DISCOUNT = '6f1c2a7e-0b7d-4c1a-9a3e-000000000003';
const base = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  LOG_LEVEL: 'silent',
  GATEWAY_ENV: 'development',
};

/** The test seed with a DISCOUNT reward and two LOYAL- codes issued to MBR-0001. */
function seedWithCodes(codePrefix: 'LOYAL' | undefined) {
  const doc: Record<string, any> = testSeedDocument();
  if (codePrefix === undefined) delete doc.codePrefix;
  const merchant = doc.merchants[0];
  merchant.rewards.push({ id: DISCOUNT, type: 'DISCOUNT', title: '$10 off', discountValue: 10 });
  merchant.issuedCodes = ['LOYAL-DEV1', 'LOYAL-DEV2'].map((code) => ({ code, rewardId: DISCOUNT, membershipId: 'MBR-0001' }));
  return doc;
}

async function post(url: string, body: unknown, credentials: { vendor: string; storeId: string; secret: string }) {
  const raw = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    ...signedHeaders({ vendor: credentials.vendor, store: credentials.storeId, secret: credentials.secret, body: raw }),
  };
  const response = await fetch(`${url}/webhooks/generic`, { method: 'POST', headers, body: raw });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function codeStatuses(dataDir: string): Promise<Record<string, string>> {
  const database = createDatabase<any>({ sqliteFile: path.join(dataDir, 'engine.sqlite') });
  try {
    const rows = await database.db.selectFrom('reward_instances').select(['code', 'status']).where('origin', '=', 'issued_code').execute();
    return Object.fromEntries(rows.map((r: { code: string; status: string }) => [r.code, r.status]));
  } finally {
    await database.close();
  }
}

// Two or three gateway starts from source per test, each migrating and starting its threads: past vitest's 5 s on a slow host.
describe('development: the demo sandbox beside GATEWAY_SEED_FILE', { timeout: 30_000 }, () => {
  it.each([['LOYAL' as const], [undefined]])(
    "the demo keeps the seed file's code prefix (codes live, a second start succeeds): codePrefix %s, two starts, codes usable",
    async (codePrefix) => {
      const dataDir = path.join(dir, `data-${codePrefix ?? 'default'}`);
      const seedFile = path.join(dir, `seed-${codePrefix ?? 'default'}.json`);
      writeFileSync(seedFile, JSON.stringify(seedWithCodes(codePrefix)));
      const env = { ...base, GATEWAY_DATA_DIR: dataDir, GATEWAY_SEED_FILE: seedFile };
      for (const code of ['LOYAL-DEV1', 'LOYAL-DEV2']) {
        const gw = await startGateway(env);
        try {
          const withCode = { ...sale(), transaction: { ...sale().transaction, discountCodes: [{ code, amount: 10 }] } };
          expect(await post(gw.address, withCode, { vendor: VENDOR, storeId: STORE, secret: SECRET })).toMatchObject({
            status: 200,
            body: { status: 'processed' },
          });
          const demo = JSON.parse(readFileSync(path.join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')) as DemoCredentials;
          const demoSale = { ...sale({ store: demo.storeId, customer: { type: 'membershipId', value: 'MBR-DEMO-0001' } }) };
          expect(await post(gw.address, demoSale, demo)).toMatchObject({
            status: 200,
            body: { status: 'processed', membershipId: 'MBR-DEMO-0001' },
          });
        } finally {
          await gw.close();
        }
        expect((await codeStatuses(dataDir))[code]).toBe('used');
      }
    },
  );

  it('a data dir of the previous release (its demo stored code prefix DEMO, no DEMO- code issued) takes a seed file of LOYAL- codes; two starts, codes usable', async () => {
    const dataDir = path.join(dir, 'data-previous-release');
    const seedFile = path.join(dir, 'seed-previous-release.json');
    writeFileSync(seedFile, JSON.stringify(seedWithCodes('LOYAL')));
    await (await startGateway({ ...base, GATEWAY_DATA_DIR: dataDir })).close(); // the demo alone
    const database = createDatabase<any>({ sqliteFile: path.join(dataDir, 'engine.sqlite') });
    try {
      await database.db
        .insertInto('engine_settings')
        .values({ key: 'code_prefix', value: 'DEMO' })
        .onConflict((oc: any) => oc.column('key').doUpdateSet({ value: 'DEMO' }))
        .execute(); // what the old demo wrote on each start
    } finally {
      await database.close();
    }
    const env = { ...base, GATEWAY_DATA_DIR: dataDir, GATEWAY_SEED_FILE: seedFile };
    for (const code of ['LOYAL-DEV1', 'LOYAL-DEV2']) {
      const gw = await startGateway(env);
      try {
        const withCode = { ...sale(), transaction: { ...sale().transaction, discountCodes: [{ code, amount: 10 }] } };
        expect(await post(gw.address, withCode, { vendor: VENDOR, storeId: STORE, secret: SECRET })).toMatchObject({
          status: 200,
          body: { status: 'processed' },
        });
      } finally {
        await gw.close();
      }
      expect((await codeStatuses(dataDir))[code]).toBe('used');
    }
  });
});
