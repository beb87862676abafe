import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@loyalty-gateway/core';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway } from './start-gateway.js';
import { MASTER_KEY_FILE } from './stores/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-master-key-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  LOG_LEVEL: 'silent',
  GATEWAY_SCHEDULER: 'off',
};

describe('GATEWAY_MASTER_KEY at start-up', () => {
  it('beta (real merchant pilots) without it: refuses to start, naming the variable, and generates no key', async () => {
    const dataDir = path.join(dir, 'beta');
    const start = startGateway({ ...base, GATEWAY_ENV: 'beta', GATEWAY_DATA_DIR: dataDir });
    await expect(start).rejects.toBeInstanceOf(ConfigError); // printed as a message for the operator, not a crash
    await expect(start).rejects.toThrow(/GATEWAY_MASTER_KEY is required in beta/);
    expect(existsSync(path.join(dataDir, MASTER_KEY_FILE))).toBe(false);
  });

  it('beta with it: starts, and keeps no key in the data dir', async () => {
    const dataDir = path.join(dir, 'beta-keyed');
    const running = await startGateway({
      ...base,
      GATEWAY_ENV: 'beta',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_MASTER_KEY: randomBytes(32).toString('base64'),
    });
    try {
      expect((await fetch(`${running.address}/health`)).status).toBe(200);
      expect(existsSync(path.join(dataDir, MASTER_KEY_FILE))).toBe(false);
    } finally {
      await running.close();
    }
  });

  it('uat without it: starts on a generated development key', async () => {
    const dataDir = path.join(dir, 'uat');
    const running = await startGateway({ ...base, GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: dataDir });
    try {
      expect((await fetch(`${running.address}/health`)).status).toBe(200);
      expect(existsSync(path.join(dataDir, MASTER_KEY_FILE))).toBe(true);
    } finally {
      await running.close();
    }
  });
});
