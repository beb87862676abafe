import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSeed, type ParsedSeed } from './seed-schema.js';
import { applySeed, type SeedTargets } from './seed.js';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

export interface DemoCredentials {
  vendor: string;
  storeId: string;
  secret: string;
  customer: string;
}

const DEMO = { vendor: 'demo-pos', storeId: 'demo-store-001', customer: 'membershipId:MBR-DEMO-0001' } as const;

/** True when the data dir does not exist yet or holds nothing: the first start of a sandbox. */
export async function isEmptyDataDir(dataDir: string): Promise<boolean> {
  try {
    return (await readdir(dataDir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * The demo sandbox: one vendor, merchant, outlet and connection, two members, three rewards. It
 * has no `codePrefix` and issues no codes, so it never touches the engine's reward-code prefix
 * (a GATEWAY_SEED_FILE's prefix, or the default) and coexists with any seed file.
 */
export function demoSeed(secret: string): ParsedSeed {
  const parsed = parseSeed({
    vendors: [{ slug: DEMO.vendor, name: 'Demo POS', tier: 'generic' }],
    merchants: [
      {
        id: 'm-demo',
        name: 'Demo Coffee',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [{ id: 'o-demo-main', name: 'Main Street' }],
        connections: [{ vendor: DEMO.vendor, storeId: DEMO.storeId, outletId: 'o-demo-main', secret, active: true }],
        members: [
          { membershipId: 'MBR-DEMO-0001', phone: '+15550000001', email: 'ann@demo.example', externalId: 'demo-crm-1', points: 250 },
          { membershipId: 'MBR-DEMO-0002', phone: '+15550000002', email: 'bob@demo.example', points: 0 },
        ],
        rewards: [
          {
            id: '0d3e5f6a-0000-4000-8000-000000000001',
            type: 'STAMP',
            title: 'Buy 5 coffees, get one free',
            stampsRequired: 5,
            match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
          },
          { id: '0d3e5f6a-0000-4000-8000-000000000002', type: 'POINTS', title: '$5 off', pointsCost: 500, discountValue: 5 },
          { id: '0d3e5f6a-0000-4000-8000-000000000003', type: 'DISCOUNT', title: '$10 off over $50', discountValue: 10, minSpend: 50 },
        ],
        issuedCodes: [],
      },
    ],
  });
  if (!('seed' in parsed)) throw new Error(`demo seed is invalid: ${JSON.stringify(parsed.issues)}`);
  return { ...parsed.seed, source: 'The demo sandbox' };
}

async function readCredentials(file: string): Promise<DemoCredentials | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${file} is unreadable (${(error as Error).message}); delete it or the data dir`);
  }
}

/**
 * Development sandbox. On a first start (empty data dir) a random secret is written to
 * `<dataDir>/demo-credentials.json` (0600) and the demo seeded. Later starts find that file and
 * re-apply the demo seed (idempotent: a start interrupted half-way is completed, nothing else
 * changes), so the credentials can be printed again. Returns null when there is no sandbox.
 */
export async function ensureDemo(dataDir: string, firstStart: boolean, targets: SeedTargets): Promise<DemoCredentials | null> {
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  let credentials = await readCredentials(file);
  if (!credentials) {
    if (!firstStart) return null;
    credentials = { ...DEMO, secret: `whsec_${randomBytes(24).toString('base64url')}` };
    await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  }
  await applySeed(demoSeed(credentials.secret), targets);
  return credentials;
}

/** The start-up lines that let a developer send a first signed sale. */
export function demoBanner(credentials: DemoCredentials, baseUrl: string): string[] {
  return [
    `Demo sandbox: vendor ${credentials.vendor}, store ${credentials.storeId}, secret ${credentials.secret} (also in ${DEMO_CREDENTIALS_FILE} in the data dir)`,
    `Send a signed sample sale: npm run cli -- send-sample --url ${baseUrl} --vendor ${credentials.vendor} --store ${credentials.storeId} --secret ${credentials.secret} --customer ${credentials.customer}`,
  ];
}
