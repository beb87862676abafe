import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMasterKey, MASTER_KEY_FILE, parseMasterKey } from './master-key.js';

let dataDir: string;
let warnings: string[];
const warn = (message: string) => warnings.push(message);

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lg-master-key-'));
  warnings = [];
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('loadMasterKey', () => {
  const key = randomBytes(32);

  it('accepts 32 bytes as base64, base64url or hex, without touching the data dir', async () => {
    for (const value of [
      key.toString('base64'),
      key.toString('base64url'),
      key.toString('hex'),
      ` ${key.toString('hex').toUpperCase()}\n`,
    ]) {
      const loaded = await loadMasterKey({ value, dataDir, environment: 'production', warn });
      expect(loaded.equals(key)).toBe(true);
    }
    await expect(stat(join(dataDir, MASTER_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(warnings).toEqual([]);
  });

  it('rejects anything else with an error naming GATEWAY_MASTER_KEY', () => {
    for (const value of [
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      'zz'.repeat(32),
      randomBytes(31).toString('hex'),
    ]) {
      expect(() => parseMasterKey(value)).toThrow(/GATEWAY_MASTER_KEY/);
    }
  });

  it.each(['production', 'beta'] as const)(
    'refuses to start in %s without a key, naming the variable, and writes no key file',
    async (environment) => {
      await expect(loadMasterKey({ value: undefined, dataDir, environment, warn })).rejects.toThrow(
        `GATEWAY_MASTER_KEY is required in ${environment}`,
      );
      await expect(loadMasterKey({ value: '  ', dataDir, environment, warn })).rejects.toThrow(/GATEWAY_MASTER_KEY/);
      await expect(stat(join(dataDir, MASTER_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
      expect(warnings).toEqual([]);
    },
  );

  it('beta with a key file an older release generated: refused too, the message saying how to keep that key', async () => {
    const file = join(dataDir, MASTER_KEY_FILE);
    const generated = randomBytes(32);
    await writeFile(file, generated, { mode: 0o600 });
    const refusal = loadMasterKey({ value: undefined, dataDir, environment: 'beta', warn });
    await expect(refusal).rejects.toThrow(/GATEWAY_MASTER_KEY is required in beta/);
    await expect(refusal).rejects.toThrow(`set GATEWAY_MASTER_KEY to it (base64 -w0 ${file})`);
    // what the message tells the operator to do works: that key, configured, is the key
    expect((await loadMasterKey({ value: generated.toString('base64'), dataDir, environment: 'beta', warn })).equals(generated)).toBe(true);
  });

  it.each(['development', 'uat'] as const)('%s without a key: a generated development key', async (environment) => {
    const loaded = await loadMasterKey({ value: undefined, dataDir, environment, warn });
    expect(loaded).toHaveLength(32);
    expect((await readFile(join(dataDir, MASTER_KEY_FILE))).equals(loaded)).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it('generates a 0600 development key once, warns, and reads the same key on the next start', async () => {
    const first = await loadMasterKey({ value: undefined, dataDir: join(dataDir, 'nested'), environment: 'development', warn });
    const file = join(dataDir, 'nested', MASTER_KEY_FILE);
    expect(first).toHaveLength(32);
    expect((await readFile(file)).equals(first)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(warnings[0]).toMatch(/generated a development key/);
    expect(warnings[0]).toMatch(/must not be used in beta or production/);

    const second = await loadMasterKey({ value: undefined, dataDir: join(dataDir, 'nested'), environment: 'uat', warn });
    expect(second.equals(first)).toBe(true);
    expect(warnings).toHaveLength(2);
  });

  it('two processes starting at once end up with one key', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => loadMasterKey({ value: undefined, dataDir, environment: 'uat', warn })));
    for (const k of keys) expect(k.equals(keys[0]!)).toBe(true);
  });

  it('refuses a damaged key file rather than silently replacing it', async () => {
    await writeFile(join(dataDir, MASTER_KEY_FILE), 'not a key');
    await expect(loadMasterKey({ value: undefined, dataDir, environment: 'development', warn })).rejects.toThrow(/exactly 32 bytes/);
  });
});
