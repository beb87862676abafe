import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000, HOST: '127.0.0.1', GATEWAY_ENV: 'development', GATEWAY_DATA_DIR: './.data', GATEWAY_RATE_LIMIT: 600, LOG_LEVEL: 'info',
    });
  });

  it('HOST defaults to 0.0.0.0 outside development; an explicit HOST wins', () => {
    expect(loadConfig({ GATEWAY_ENV: 'production' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ GATEWAY_ENV: 'uat', HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('parses every variable', () => {
    const config = loadConfig({
      PORT: '8080', GATEWAY_ENV: 'beta', GATEWAY_DATA_DIR: '/var/lib/lg', GATEWAY_SEED_FILE: 'seed.json', GATEWAY_MASTER_KEY: 'k',
      DATABASE_URL: 'postgres://u@db:5432/lg', REDIS_URL: 'redis://cache:6379', GATEWAY_RATE_LIMIT: '1200', LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({ PORT: 8080, GATEWAY_ENV: 'beta', DATABASE_URL: 'postgres://u@db:5432/lg', REDIS_URL: 'redis://cache:6379', GATEWAY_RATE_LIMIT: 1200 });
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
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['LOYALTY_ENGINE_URL', 'http://engine:4000'],
  ])('%s=%s stops start-up with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('LOYALTY_ENGINE_URL says the remote engine is not supported yet', () => {
    expect(() => loadConfig({ LOYALTY_ENGINE_URL: 'http://engine:4000' })).toThrow(/not supported yet/);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', GATEWAY_ENV: 'y' })).toThrow(/PORT: [\s\S]*GATEWAY_ENV: /);
  });
});
