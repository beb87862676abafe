import { describe, expect, it } from 'vitest';
import { ConfigError } from '@loyalty-gateway/core';
import { loadEngineServiceConfig } from './service-config.js';
import { engineSeedFrom } from './service-seed.js';

describe('engine service configuration', () => {
  it('defaults: 127.0.0.1:4000, ./.data-engine, SQLite, no token, batches on, info', () => {
    expect(loadEngineServiceConfig({})).toEqual({
      ENGINE_PORT: 4000,
      ENGINE_HOST: '127.0.0.1',
      ENGINE_DATA_DIR: './.data-engine',
      ENGINE_COMMAND_BATCHES: 'on',
      LOG_LEVEL: 'info',
    });
    expect(loadEngineServiceConfig({ DATABASE_URL: '', ENGINE_PORT: '4100' })).toMatchObject({ ENGINE_PORT: 4100 });
    expect(loadEngineServiceConfig({ ENGINE_COMMIT_LANES: '4' })).toMatchObject({ ENGINE_COMMIT_LANES: 4 });
    expect(loadEngineServiceConfig({}).ENGINE_SQLITE_CACHE_MB).toBeUndefined();
    expect(loadEngineServiceConfig({ ENGINE_SQLITE_CACHE_MB: '16' })).toMatchObject({ ENGINE_SQLITE_CACHE_MB: 16 });
  });

  it.each([
    [{ ENGINE_PORT: 'x' }, 'ENGINE_PORT'],
    [{ ENGINE_PORT: '70000' }, 'ENGINE_PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ENGINE_TOKEN: 'short' }, 'ENGINE_TOKEN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ ENGINE_COMMIT_LANES: '0' }, 'ENGINE_COMMIT_LANES'],
    [{ ENGINE_COMMIT_LANES: '9' }, 'ENGINE_COMMIT_LANES'],
    [{ ENGINE_COMMIT_LANES: 'many' }, 'ENGINE_COMMIT_LANES'],
    [{ ENGINE_SQLITE_CACHE_MB: '0' }, 'ENGINE_SQLITE_CACHE_MB'],
    [{ ENGINE_SQLITE_CACHE_MB: '4096' }, 'ENGINE_SQLITE_CACHE_MB'],
    [{ ENGINE_SQLITE_CACHE_MB: 'some' }, 'ENGINE_SQLITE_CACHE_MB'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadEngineServiceConfig(env)).toThrow(ConfigError);
    expect(() => loadEngineServiceConfig(env)).toThrow(new RegExp(`${variable}:`));
  });
});

describe('engine service seed file', () => {
  const merchant = {
    id: 'm-1',
    name: 'M',
    currency: 'USD',
    defaultCountryCode: '1',
    earnRate: 1,
    redemptionRate: 100,
    outlets: [{ id: 'o-1', name: 'O' }],
  };

  it('takes codePrefix and merchants minus their connections; ignores vendors', () => {
    const seed = engineSeedFrom({
      codePrefix: 'ACME',
      vendors: [{ slug: 'acme-pos', name: 'Acme', tier: 'generic' }],
      merchants: [{ ...merchant, connections: [{ vendor: 'acme-pos', storeId: 's', outletId: 'o-1', secret: 'x'.repeat(32) }] }],
    });
    expect(seed.codePrefix).toBe('ACME');
    expect(seed.merchants[0]).toMatchObject({ id: 'm-1', outlets: [{ id: 'o-1', name: 'O' }] });
    expect(seed.merchants[0]).not.toHaveProperty('connections');
  });

  it('names the faulty path', () => {
    expect(() => engineSeedFrom({ merchants: [{ ...merchant, earnRate: -1 }] })).toThrow(
      /ENGINE_SEED_FILE is invalid:\n {2}merchants\[0\]\.earnRate/,
    );
  });
});
