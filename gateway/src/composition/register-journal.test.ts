import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { closeContainer, createGatewayContainer, open, provide, TOKENS } from './index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-register-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A container on a fresh data directory whose logger's lines are collected. */
function gatewayLogging(dataDir: string) {
  const c = createGatewayContainer(
    loadConfig({
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_ENV: 'uat',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOYALTY_ENGINE_URL: '',
      GATEWAY_SCHEDULER: 'off',
      GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    }),
  ).createChildContainer();
  const lines: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  provide(c, TOKENS.logger, { useValue: pino({ level: 'info' }, sink) });
  return { c, lines };
}

describe('registerJournal: the journal and its pruning', () => {
  it('the start-up pass is logged at info when it ends, with what it removed and how long it took, even when it removed nothing', async () => {
    const { c, lines } = gatewayLogging(path.join(dir, 'start-up'));
    try {
      expect(await open(c, TOKENS.journalPruning)).not.toBeNull();
      await vi.waitFor(() => expect(lines.map((line) => line.msg)).toContain('delivery journal pruned'), { timeout: 10_000 });
      const line = lines.find((l) => l.msg === 'delivery journal pruned')!;
      expect(line).toMatchObject({ level: 30, removed: 0, atStart: true, days: expect.any(Number) });
      expect(line.ms).toEqual(expect.any(Number));
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await closeContainer(c);
    }
  }, 30_000);

  it('a gateway stopped while its start-up pruning runs logs no failure: the pruning ends with the journal, and says so at info', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { c, lines } = gatewayLogging(path.join(dir, `stop-${round}`));
      // The start-up pruning begins (its first statement goes to the writer thread, still starting)...
      expect(await open(c, TOKENS.journalPruning)).not.toBeNull();
      // ...and the gateway stops at once, as one stopped right after its start.
      await closeContainer(c);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      expect(lines.map((line) => line.msg)).toContain(
        'delivery journal pruning stopped: the gateway is stopping (it runs again at the next start)',
      );
    }
  }, 30_000);
});
