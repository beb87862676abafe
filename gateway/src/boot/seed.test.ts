import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@loyalty-gateway/storage';
import { startGateway } from '../start-gateway.js';
import { openGateway } from '../testing/gateway-fixture.js';
import { sale, testSeedDocument } from '../testing/test-seed.js';
import { parseSeed } from './seed-schema.js';
import { SeedError, applySeed, loadSeedFile } from './seed.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(content: unknown): string {
  n += 1;
  const at = path.join(dir, `seed-${n}.json`);
  writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content));
  return at;
}

async function seedError(content: unknown): Promise<string> {
  const at = file(content);
  const error = await loadSeedFile(at).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedError);
  const message = (error as SeedError).message;
  expect(message).toContain(at);
  return message;
}

describe('seed file validation', () => {
  it('the issue example format is accepted', async () => {
    const seed = await loadSeedFile(file(testSeedDocument()));
    expect(seed.vendors.map((v) => v.slug)).toEqual(['acme-pos', 'other-pos']);
    expect(seed.connections).toHaveLength(3);
    expect(seed.connections[0]).toMatchObject({ merchantId: 'm-bean', vendor: 'acme-pos', storeId: 'store-001' });
    expect(seed.engine.merchants[0]).not.toHaveProperty('connections');
  });

  it('a missing file or invalid JSON names the file', async () => {
    await expect(loadSeedFile(path.join(dir, 'absent.json'))).rejects.toThrow(/absent\.json cannot be read/);
    expect(await seedError('{"vendors": [')).toMatch(/is not valid JSON/);
  });

  it('schema errors name the file and each faulty field path', async () => {
    const doc: any = testSeedDocument();
    doc.vendors[0].tier = 'gold';
    doc.merchants[0].connections[0].colour = 'red';
    doc.merchants[0].earnRate = -1;
    const message = await seedError(doc);
    expect(message).toMatch(/vendors\[0\]\.tier/);
    expect(message).toMatch(/merchants\[0\]\.connections\[0\]\.colour: unknown field/);
    const engineDoc: any = testSeedDocument();
    engineDoc.merchants[0].earnRate = -1;
    engineDoc.merchants[0].rewards[0].id = 'not-a-uuid';
    const engineMessage = await seedError(engineDoc);
    expect(engineMessage).toMatch(/merchants\[0\]\.earnRate/);
    expect(engineMessage).toMatch(/merchants\[0\]\.rewards\[0\]\.id/);
  });

  it('a vendor name or an outlet id holding a NUL character is refused naming its path (PostgreSQL cannot store it)', async () => {
    const doc: any = testSeedDocument();
    doc.vendors[0].name = 'Acme \u0000 POS';
    doc.merchants[0].connections[0].outletId = 'o-\u0000';
    const message = await seedError(doc);
    expect(message).toMatch(/vendors\[0\]\.name: must not contain NUL characters or unpaired surrogates/);
    expect(message).toMatch(/merchants\[0\]\.connections\[0\]\.outletId: must not contain NUL/);
  });

  it('connections must reference a known vendor and an outlet of their merchant, once', async () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].connections[0].vendor = 'ghost-pos';
    doc.merchants[0].connections[1].outletId = 'o-nowhere';
    doc.merchants[0].connections.push({ ...doc.merchants[0].connections[2] });
    const message = await seedError(doc);
    expect(message).toMatch(/merchants\[0\]\.connections\[0\]\.vendor: unknown vendor "ghost-pos"/);
    expect(message).toMatch(/merchants\[0\]\.connections\[1\]\.outletId: unknown outlet "o-nowhere"/);
    expect(message).toMatch(/merchants\[0\]\.connections\[3\]\.storeId: a second connection/);
  });

  it('store ids with whitespace around them (or control characters) are refused, as HTTP trims the header', async () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].connections[0].storeId = ' padded ';
    doc.merchants[0].connections[1].storeId = 'two\nlines';
    const message = await seedError(doc);
    expect(message).toContain('merchants[0].connections[0].storeId: must not start or end with a space or tab: HTTP trims them');
    expect(message).toContain('merchants[0].connections[1].storeId: must not contain control characters');
  });

  it('unknown top-level fields fail', async () => {
    expect(await seedError({ ...testSeedDocument(), extra: true })).toMatch(/extra: unknown field/);
  });
});

/** What a data dir holds after a start: vendor slugs in the gateway store, merchant ids in the engine. */
async function contents(dataDir: string): Promise<{ vendors: string[]; merchants: string[] }> {
  const read = async (file: string, table: string, column: string) => {
    const database = createDatabase<any>({ sqliteFile: path.join(dataDir, file) });
    try {
      return (await database.db.selectFrom(table).select(column).execute()).map((row: Record<string, string>) => row[column]!).sort();
    } finally {
      await database.close();
    }
  };
  return { vendors: await read('gateway.sqlite', 'gw_vendors', 'slug'), merchants: await read('engine.sqlite', 'merchants', 'id') };
}

describe('a seed file is checked before anything is written', () => {
  const env = (dataDir: string, seedFile: string) => ({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_SEED_FILE: seedFile,
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    LOG_LEVEL: 'silent',
  });

  it('an issued code without the prefix is refused while the file is checked, before anything is applied: SeedError naming file and path, no stack, nothing written', async () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].rewards.push({ id: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003', type: 'DISCOUNT', title: '$10 off', discountValue: 10 });
    doc.merchants[0].issuedCodes = [{ code: 'XYZ-1', rewardId: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003', membershipId: 'MBR-0001' }];
    const at = file(doc);
    const message = await seedError(doc);
    expect(message).toContain('merchants[0].issuedCodes[0].code: must start with "LOYAL-"');
    const dataDir = path.join(dir, 'bad-prefix');
    const error = await startGateway(env(dataDir, at)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedError);
    expect((error as Error).message).toContain(at);
    expect(await contents(dataDir)).toEqual({ vendors: [], merchants: [] });
  });

  it('a seed whose codePrefix conflicts with the established one (issued codes carry it) stops start-up naming the file; nothing of it is written', async () => {
    const dataDir = path.join(dir, 'conflict');
    const first: any = testSeedDocument();
    first.merchants[0].rewards.push({ id: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003', type: 'DISCOUNT', title: '$10 off', discountValue: 10 });
    first.merchants[0].issuedCodes = [{ code: 'LOYAL-7QX2', rewardId: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003', membershipId: 'MBR-0001' }];
    const gw = await startGateway(env(dataDir, file(first)));
    await gw.close();
    const before = await contents(dataDir);
    const doc: any = testSeedDocument();
    doc.codePrefix = 'SHOP';
    doc.vendors.push({ slug: 'new-pos', name: 'New POS', tier: 'generic' });
    doc.merchants[0].id = 'm-new';
    doc.merchants[0].rewards = [];
    doc.merchants[0].connections = [{ vendor: 'new-pos', storeId: 'n-1', outletId: 'o-downtown', secret: 'whsec_new_secret_0123456789' }];
    const at = file(doc);
    const error = await startGateway(env(dataDir, at)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Seed file ${at} cannot be applied:\\n  codePrefix: codePrefix "SHOP" conflicts with the reward-code prefix "LOYAL" this loyalty engine already uses: 1 issued code carries it \\(e\\.g\\. "LOYAL-7QX2"\\)`,
      ),
    );
    expect(await contents(dataDir)).toEqual(before);
    expect(before.vendors).not.toContain('new-pos');
  });
});

describe('applying a seed', () => {
  it('is idempotent: re-applying changes nothing already there', async () => {
    const gw = await openGateway(); // applied once here
    try {
      const parsed = parseSeed(testSeedDocument());
      if (!('seed' in parsed)) throw new Error('invalid');
      const response = await gw.send(sale({ total: 7 }));
      expect(response.statusCode).toBe(200);
      const balance = await gw.balance('MBR-0001');
      const connections = await gw.store.listConnections();
      expect(await applySeed(parsed.seed, { store: gw.store, engine: gw.engine })).toEqual({ vendors: 0, connections: 0 });
      expect(await gw.balance('MBR-0001')).toBe(balance);
      expect(await gw.store.listConnections()).toEqual(connections);
    } finally {
      await gw.close();
    }
  });
});
