import type { CustomerIdentifier, EarnCommand, SaleLine } from '@loyalty-gateway/core';
import type { Kysely } from 'kysely';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import { openTestDatabase } from '@loyalty-gateway/storage/testing';
import { WALLET } from '../ledger/balances.js';
import { engineMigrations } from '../db/migrations/index.js';
import { createEmbeddedEngine, type EmbeddedEngine } from '../ledger/create-embedded-engine.js';
import type { EngineSeed } from '../seed/engine-seed.js';

/** Test-only helpers: a seeded engine on a fresh database of one dialect, and command builders. */
export const IDS = {
  stamp: '6f1c2a7e-0b7d-4c1a-9a3e-000000000001',
  points: '6f1c2a7e-0b7d-4c1a-9a3e-000000000002',
  discount: '6f1c2a7e-0b7d-4c1a-9a3e-000000000003',
  freeItem: '6f1c2a7e-0b7d-4c1a-9a3e-000000000004',
  tier: '6f1c2a7e-0b7d-4c1a-9a3e-000000000005',
  unknown: '6f1c2a7e-0b7d-4c1a-9a3e-0000000000ff',
} as const;

export const SCOPE = { merchantId: 'm-bean', outletId: 'o-downtown', source: { vendor: 'acme-pos', storeId: 'store-001' } };

export const ANN: CustomerIdentifier = { type: 'membershipId', value: 'MBR-0001' };
export const BOB: CustomerIdentifier = { type: 'membershipId', value: 'MBR-0002' };

export function testSeed(): EngineSeed {
  return {
    codePrefix: 'LOYAL',
    merchants: [
      {
        id: 'm-bean',
        name: 'Bean There',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [{ id: 'o-downtown', name: 'Downtown' }],
        members: [
          { membershipId: 'MBR-0001', phone: '+15550100001', email: 'ann@example.com', externalId: 'crm-1', points: 1200 },
          { membershipId: 'MBR-0002', phone: '+15550100002', email: 'Bob@Example.com', points: 0 },
        ],
        rewards: [
          {
            id: IDS.stamp,
            type: 'STAMP',
            title: 'Buy 5 coffees, get one free',
            stampsRequired: 5,
            match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
          },
          { id: IDS.points, type: 'POINTS', title: '$5 off', pointsCost: 500, discountValue: 5 },
          { id: IDS.discount, type: 'DISCOUNT', title: '$10 off over $50', discountValue: 10, minSpend: 50 },
          { id: IDS.freeItem, type: 'FREE_ITEM', title: 'Free muffin', match: { skus: ['MUF-1'], keywords: [] } },
          { id: IDS.tier, type: 'TIER', title: 'Gold: $2 off', minPoints: 2000, discountValue: 2 },
        ],
        issuedCodes: [
          { code: 'LOYAL-7QX2', rewardId: IDS.discount, membershipId: 'MBR-0001' },
          { code: 'LOYAL-MUF1', rewardId: IDS.freeItem, membershipId: 'MBR-0001' },
        ],
      },
    ],
  };
}

export interface TestEngine {
  engine: EmbeddedEngine;
  database: SqlDatabase<EngineTables>;
  db: Kysely<EngineTables>;
  close(): Promise<void>;
}

export async function openSeededEngine(dialect: 'sqlite' | 'postgres', seed: EngineSeed | null = testSeed()): Promise<TestEngine> {
  const database = await openTestDatabase<EngineTables>(dialect, engineMigrations);
  const engine = await createEmbeddedEngine({ database });
  if (seed) await engine.applySeed(seed);
  return {
    engine,
    database,
    db: database.db,
    close: async () => {
      await engine.close();
      await database.close();
    },
  };
}

let counter = 0;
export const uniqueId = (prefix = 'T'): string => `${prefix}-${Date.now().toString(36)}-${++counter}`;

export function line(name: string, quantity = 1, extra: Partial<SaleLine> = {}): SaleLine {
  return { name, quantity, unitPriceMinor: 450, ...extra };
}

export function sale(overrides: Partial<EarnCommand['transaction']> = {}, scope = SCOPE): EarnCommand {
  return {
    ...scope,
    eventId: uniqueId('evt'),
    occurredAt: '2026-01-15T10:00:00Z',
    store: { id: scope.source.storeId },
    transaction: { id: uniqueId('tx'), totalMinor: 1250, currency: 'USD', customer: ANN, items: [], discountCodes: [], ...overrides },
  };
}

export async function balanceOf(db: Kysely<EngineTables>, membershipId: string): Promise<number> {
  const row = await db
    .selectFrom('balances')
    .innerJoin('members', 'members.id', 'balances.member_id')
    .select('balances.balance')
    .where('members.membership_id', '=', membershipId)
    .where('balances.reward_id', '=', WALLET)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Sum of the member's ledger entries: must always equal the wallet balance. */
export async function ledgerSum(db: Kysely<EngineTables>, membershipId: string): Promise<number> {
  const rows = await db
    .selectFrom('ledger_entries')
    .innerJoin('members', 'members.id', 'ledger_entries.member_id')
    .select('ledger_entries.points')
    .where('members.membership_id', '=', membershipId)
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.points), 0);
}
