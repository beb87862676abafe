import { spawnSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createGatewayLogging, LOG_FLUSH_MS, logDestination } from './logger-options.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe("the gateway's default log destination (stdout, asynchronous, in chunks)", () => {
  it.each([
    ['process.exit', 'exit', 3],
    ['an uncaught error', 'throw', 1],
  ])(
    'every line logged before %s reaches stdout',
    (_, exit, code) => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'gateway/src/testing/log-then-exit.ts'], {
        cwd: root,
        env: { ...process.env, LINES: '5000', EXIT: exit },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(child.status).toBe(code);
      const lines = child.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { n: number; msg: string });
      expect(lines).toHaveLength(5000);
      expect(lines.map((line) => line.n)).toEqual([...Array(5000).keys()]);
      if (exit === 'throw') expect(child.stderr).toMatch(/crashed after logging/);
    },
    30_000,
  );

  it("an idle gateway's line is out within LOG_FLUSH_MS, though lines are written in chunks of LOG_WRITE_BYTES", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-log-'));
    const fifo = path.join(dir, 'stdout');
    spawnSync('mkfifo', [fifo]);
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const destination = logDestination({ fd });
    const { logger } = createGatewayLogging('info', destination);
    try {
      const startedAt = Date.now();
      logger.info({ port: 3000 }, 'gateway ready');
      const buffer = Buffer.alloc(64 * 1024);
      let text = '';
      while (!text.includes('\n') && Date.now() - startedAt < 2_000) {
        try {
          text += buffer.toString('utf8', 0, readSync(fd, buffer));
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      expect(JSON.parse(text)).toMatchObject({ msg: 'gateway ready', port: 3000 });
      expect(Date.now() - startedAt).toBeLessThan(LOG_FLUSH_MS + 400);
    } finally {
      destination.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a stalled reader never blocks the logger: lines past the bound are dropped and counted, the rest written once it reads', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-log-'));
    const fifo = path.join(dir, 'stdout');
    spawnSync('mkfifo', [fifo]);
    // Opened for reading and writing, so neither end waits for the other; nobody reads yet.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const destination = logDestination({ fd, maxLength: 256 * 1024 });
    const { requestLine, droppedLines } = createGatewayLogging('info', destination);
    try {
      const line = { url: '/webhooks/generic', padding: 'x'.repeat(400) };
      const startedAt = performance.now();
      for (let n = 0; n < 5_000; n += 1) requestLine.info({ n, ...line }, 'request completed');
      // ~2.3 MB logged into a pipe of 64 KiB that nobody reads, without waiting for it.
      expect(performance.now() - startedAt).toBeLessThan(2_000);
      expect(droppedLines()).toBeGreaterThan(3_000);
      expect(droppedLines()).toBeLessThan(5_000);
      // The reader wakes up: what was queued (within the bound) is written, in order.
      let text = '';
      const buffer = Buffer.alloc(1024 * 1024);
      let quietSince = Date.now();
      // Until the pipe stays empty for longer than the destination's 100 ms between retries.
      while (Date.now() - quietSince < 1_000) {
        try {
          const n = readSync(fd, buffer);
          text += buffer.toString('utf8', 0, n);
          quietSince = Date.now();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      const written = text
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n);
      expect(written.length).toBe(5_000 - droppedLines());
      expect(written).toEqual([...written].sort((a, b) => a - b));
      expect(written[0]).toBe(0);
    } finally {
      destination.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
