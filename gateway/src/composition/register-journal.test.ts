import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { closeContainer, createGatewayContainer, open, provide, TOKENS } from './index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-register-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('registerJournal: the journal and its pruning', () => {
  it('a gateway stopped while its start-up pruning runs logs no failure: the pruning ends with the journal, and says so at info', async () => {
    for (let round = 0; round < 3; round += 1) {
      const dataDir = path.join(dir, `stop-${round}`);
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
      const lines: Array<{ level: number; msg: string }> = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
          done();
        },
      });
      provide(c, TOKENS.logger, { useValue: pino({ level: 'info' }, sink) });
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
