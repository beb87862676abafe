import { describe, expect, it } from 'vitest';
import { IDS, testSeed } from '../testing/fixture.js';
import { EngineSeed } from './engine-seed.js';

const paths = (input: unknown) => {
  const result = EngineSeed.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
};

describe('EngineSeed', () => {
  it('accepts the documented seed and fills defaults', () => {
    const parsed = EngineSeed.parse({
      merchants: [{ id: 'm', name: 'M', currency: 'USD', defaultCountryCode: '1', earnRate: 1, redemptionRate: 100 }],
    });
    expect(parsed.merchants[0]).toMatchObject({ outlets: [], members: [], rewards: [], issuedCodes: [] });
    expect(EngineSeed.parse(testSeed())).toBeDefined();
  });

  it('is strict: unknown fields (e.g. connections left in) fail', () => {
    const seed = { ...testSeed(), vendors: [] };
    expect(paths(seed)).toEqual(['']);
    const withConnections = testSeed() as unknown as { merchants: Array<Record<string, unknown>> };
    withConnections.merchants[0]!.connections = [];
    expect(paths(withConnections)).toEqual(['merchants.0']);
  });

  it('names duplicates, bad phones and bad references', () => {
    const seed = testSeed();
    const m = seed.merchants[0]!;
    m.members.push({ membershipId: 'MBR-0001', phone: '+1 555 010 0001', points: 0 });
    m.members.push({ membershipId: 'MBR-0009', phone: 'call me', points: 0 });
    m.rewards.push({ ...m.rewards[1]!, title: 'dup' } as never);
    m.issuedCodes.push({ code: 'LOYAL-X', rewardId: IDS.points, membershipId: 'MBR-0001' });
    expect(paths(seed)).toEqual(
      expect.arrayContaining([
        'merchants.0.members.2.membershipId',
        'merchants.0.members.2.phone',
        'merchants.0.members.3.phone',
        'merchants.0.rewards.5.id',
        'merchants.0.issuedCodes.2.rewardId',
      ]),
    );
  });

  it('an id or a name holding a NUL character or an unpaired surrogate is refused at its path (PostgreSQL cannot store it)', () => {
    const seed = testSeed();
    const m = seed.merchants[0]!;
    m.name = 'Bean \u0000 Co';
    m.members.push({ membershipId: 'MBR-\ud800', points: 0 });
    expect(paths(seed)).toEqual(expect.arrayContaining(['merchants.0.name', 'merchants.0.members.2.membershipId']));
  });

  it('checks reward shapes per type and money precision', () => {
    const seed = testSeed();
    seed.merchants[0]!.rewards = [{ id: IDS.points, type: 'POINTS', title: 'x', pointsCost: 0, discountValue: 5.005 } as never];
    expect(paths(seed).sort()).toEqual(['merchants.0.rewards.0.discountValue', 'merchants.0.rewards.0.pointsCost']);
    seed.merchants[0]!.rewards = [{ id: 'not-a-uuid', type: 'STAMP', title: 'x', match: {} } as never];
    expect(paths(seed)).toEqual(expect.arrayContaining(['merchants.0.rewards.0.id', 'merchants.0.rewards.0.stampsRequired']));
  });

  it('issued codes carry codePrefix, or the default LOYAL when it is not set', () => {
    const seed = testSeed();
    seed.codePrefix = 'SHOP';
    expect(paths(seed)).toEqual(['merchants.0.issuedCodes.0.code', 'merchants.0.issuedCodes.1.code']);
    delete seed.codePrefix;
    expect(paths(seed)).toEqual([]);
    seed.merchants[0]!.issuedCodes[1]!.code = 'SHOP-1';
    expect(paths(seed)).toEqual(['merchants.0.issuedCodes.1.code']);
  });

  it('rejects a rate with float noise beyond 6 decimals', () => {
    const seed = testSeed();
    seed.merchants[0]!.earnRate = 0.1 + 0.2;
    expect(paths(seed)).toEqual(['merchants.0.earnRate']);
  });
});
