import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      GATEWAY_ENV: 'development',
      GATEWAY_DATA_DIR: './.data',
      GATEWAY_RATE_LIMIT: 600,
      GATEWAY_PREVIEW_RATE_LIMIT: 600,
      GATEWAY_DELIVERY_LOG_RATE_LIMIT: 60,
      GATEWAY_REFUSED_LIMIT: 120,
      GATEWAY_TRUSTED_PROXIES: [],
      GATEWAY_REQUEST_TIMEOUT_MS: 30_000,
      GATEWAY_MAX_CONNECTIONS: 4_096,
      GATEWAY_METRICS_HOST: '127.0.0.1',
      GATEWAY_OUTBOUND_ALLOW: [],
      GATEWAY_IDEMPOTENCY_CACHE_MB: 4,
      GATEWAY_JOURNAL_DAYS: 14,
      GATEWAY_JOURNAL_MB: 2048,
      GATEWAY_JOURNAL_WRITER: 'thread',
      GATEWAY_RUNS_DAYS: 90,
      LOG_LEVEL: 'info',
      LOYALTY_ENGINE_TIMEOUT_MS: 2000,
      GATEWAY_FEATURES: [],
      GATEWAY_SCHEDULER: 'on',
      GATEWAY_SQLITE_CACHE_MB: 2,
    });
  });

  it('HOST defaults to 0.0.0.0 outside development; an explicit HOST wins', () => {
    expect(loadConfig({ GATEWAY_ENV: 'production', GATEWAY_ADMIN_TOKEN: 'x'.repeat(24) }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ GATEWAY_ENV: 'uat', HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('parses every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      GATEWAY_ENV: 'beta',
      GATEWAY_DATA_DIR: '/var/lib/lg',
      GATEWAY_SEED_FILE: 'seed.json',
      GATEWAY_MASTER_KEY: 'k',
      DATABASE_URL: 'postgres://u@db:5432/lg',
      REDIS_URL: 'redis://cache:6379',
      GATEWAY_RATE_LIMIT: '1200',
      GATEWAY_PREVIEW_RATE_LIMIT: '300',
      GATEWAY_DELIVERY_LOG_RATE_LIMIT: '10',
      LOG_LEVEL: 'debug',
      GATEWAY_IDEMPOTENCY_CACHE_MB: '64',
      GATEWAY_COMMIT_LANES: '4',
      GATEWAY_SQLITE_CACHE_MB: '2',
      GATEWAY_RUNS_DAYS: '30',
      GATEWAY_JOURNAL_WRITER: 'engine',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      GATEWAY_ENV: 'beta',
      DATABASE_URL: 'postgres://u@db:5432/lg',
      REDIS_URL: 'redis://cache:6379',
      GATEWAY_RATE_LIMIT: 1200,
      GATEWAY_PREVIEW_RATE_LIMIT: 300,
      GATEWAY_DELIVERY_LOG_RATE_LIMIT: 10,
      GATEWAY_IDEMPOTENCY_CACHE_MB: 64,
      GATEWAY_COMMIT_LANES: 4,
      GATEWAY_SQLITE_CACHE_MB: 2,
      GATEWAY_RUNS_DAYS: 30,
      GATEWAY_JOURNAL_WRITER: 'engine',
    });
  });

  it('empty strings are unset', () => {
    const config = loadConfig({ DATABASE_URL: '', REDIS_URL: ' ', PORT: '', LOYALTY_ENGINE_URL: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['GATEWAY_ENV', 'staging'],
    ['GATEWAY_RATE_LIMIT', '0'],
    ['GATEWAY_RATE_LIMIT', '-5'],
    ['GATEWAY_RATE_LIMIT', 'lots'],
    ['GATEWAY_PREVIEW_RATE_LIMIT', '0'],
    ['GATEWAY_DELIVERY_LOG_RATE_LIMIT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['LOYALTY_ENGINE_URL', 'engine:4000'],
    ['GATEWAY_FEATURES', 'eligibility,loyalty'],
    ['GATEWAY_ADMIN_TOKEN', 'short'],
    ['GATEWAY_SCHEDULER', 'maybe'],
    ['GATEWAY_JOURNAL_WRITER', 'worker'],
    ['GATEWAY_TLS_PORT', '8443'],
    ['GATEWAY_IDEMPOTENCY_CACHE_MB', '0'],
    ['GATEWAY_REQUEST_TIMEOUT_MS', '10'],
    ['GATEWAY_MAX_CONNECTIONS', 'many'],
    ['GATEWAY_IDEMPOTENCY_CACHE_MB', '1.5'],
    ['GATEWAY_IDEMPOTENCY_CACHE_MB', 'big'],
    ['GATEWAY_HEAP_MB', 'lots'],
    ['GATEWAY_HEAP_MB', '31'],
    ['GATEWAY_COMMIT_LANES', '0'],
    ['GATEWAY_COMMIT_LANES', '9'],
    ['GATEWAY_COMMIT_LANES', '1.5'],
    ['GATEWAY_COMMIT_LANES', 'two'],
    ['GATEWAY_SQLITE_CACHE_MB', '0'],
    ['GATEWAY_SQLITE_CACHE_MB', '2.5'],
    ['GATEWAY_SQLITE_CACHE_MB', '2048'],
    ['GATEWAY_SQLITE_CACHE_MB', 'small'],
    ['GATEWAY_RUNS_DAYS', '0'],
    ['GATEWAY_RUNS_DAYS', '7.5'],
    ['GATEWAY_RUNS_DAYS', '3661'],
    ['GATEWAY_RUNS_DAYS', 'forever'],
  ])('%s=%s stops start-up with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('GATEWAY_HEAP_MB must hold the working set (32 MiB); the idempotency cache is outside the heap and does not count', () => {
    expect(loadConfig({}).GATEWAY_HEAP_MB).toBeUndefined();
    expect(loadConfig({ GATEWAY_HEAP_MB: '64' }).GATEWAY_HEAP_MB).toBe(64);
    expect(() => loadConfig({ GATEWAY_HEAP_MB: '31' })).toThrow(/GATEWAY_HEAP_MB: must be at least 32 \(MiB\): the gateway's working set/);
    expect(loadConfig({ GATEWAY_HEAP_MB: '32', GATEWAY_IDEMPOTENCY_CACHE_MB: '128' }).GATEWAY_HEAP_MB).toBe(32);
    // With DATABASE_URL the loyalty engine runs on the event loop, in this heap too.
    const postgres = { DATABASE_URL: 'postgres://u@db:5432/lg' };
    expect(() => loadConfig({ ...postgres, GATEWAY_HEAP_MB: '50' })).toThrow(
      /GATEWAY_HEAP_MB: must be at least 32 \+ 24 \(the loyalty engine runs in this heap with DATABASE_URL\) = 56 \(MiB\)/,
    );
    expect(loadConfig({ ...postgres, GATEWAY_HEAP_MB: '56' }).GATEWAY_HEAP_MB).toBe(56);
    expect(loadConfig({ ...postgres, LOYALTY_ENGINE_URL: 'http://engine:4000', GATEWAY_HEAP_MB: '40' }).GATEWAY_HEAP_MB).toBe(40);
  });

  it('refuses production without an admin token, and parses the feature list', () => {
    expect(() => loadConfig({ GATEWAY_ENV: 'production' })).toThrow(/GATEWAY_ADMIN_TOKEN: is required in production/);
    const config = loadConfig({
      GATEWAY_ENV: 'production',
      GATEWAY_ADMIN_TOKEN: 'a'.repeat(32),
      GATEWAY_FEATURES: ' eligibility, redeem ',
    });
    expect(config.GATEWAY_FEATURES).toEqual(['eligibility', 'redeem']);
    expect(loadConfig({ LOYALTY_ENGINE_URL: 'http://engine:4000' }).LOYALTY_ENGINE_URL).toBe('http://engine:4000');
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', GATEWAY_ENV: 'y' })).toThrow(/PORT: [\s\S]*GATEWAY_ENV: /);
  });
});
