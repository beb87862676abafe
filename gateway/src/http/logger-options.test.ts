import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createGatewayLogging, LOG_EXIT_FLUSH_MS, LOG_FLUSH_MS, logDestination } from './logger-options.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A named pipe that nobody reads until the test does (opened for reading and writing, so neither end waits). */
function stalledPipe(): { fd: number; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-log-'));
  const fifo = path.join(dir, 'stdout');
  spawnSync('mkfifo', [fifo]);
  return { fd: openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What the pipe gives until it stays empty for longer than the destination's 100 ms between
 * retries: once it returns, no write of the destination is in flight, so destroying it is safe (a
 * write still in flight after destroy() fails in the destination's callback).
 */
async function readUntilQuiet(fd: number): Promise<string> {
  let text = '';
  const buffer = Buffer.alloc(1024 * 1024);
  let quietSince = Date.now();
  while (Date.now() - quietSince < 1_000) {
    try {
      const n = readSync(fd, buffer);
      text += buffer.toString('utf8', 0, n);
      quietSince = Date.now();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return text;
}

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

  it('a process whose stdout nobody reads still exits: the last flush waits LOG_EXIT_FLUSH_MS for the reader, then gives up', async () => {
    // A pipe that fills and is never read (a log collector that stalled, or a parent that died
    // holding it): the synchronous flush at exit retried every 100 ms for ever, so the process
    // never exited — a gateway sent SIGTERM hung after closing its port.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-log-'));
    const fifo = path.join(dir, 'stdout');
    spawnSync('mkfifo', [fifo]);
    // The child's end; the test reads through its own (spawning a child makes the fd it is given blocking).
    const fd = openSync(fifo, constants.O_RDWR);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/testing/log-then-exit.ts'], {
        cwd: root,
        env: { ...process.env, LINES: '5000', EXIT: 'exit' },
        stdio: ['ignore', fd, 'ignore'],
      });
      const startedAt = Date.now();
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 20_000);
        child.once('exit', (status) => {
          clearTimeout(timer);
          resolve(status);
        });
      });
      expect(code, 'exited by itself').toBe(3);
      // Start-up through tsx, the lines, then at most LOG_EXIT_FLUSH_MS of retries.
      expect(Date.now() - startedAt).toBeLessThan(LOG_EXIT_FLUSH_MS + 10_000);
      // What the pipe took is whole lines from the first on.
      const first = (await readUntilQuiet(reader)).split('\n')[0]!;
      expect(JSON.parse(first)).toMatchObject({ n: 0, msg: 'request completed' });
    } finally {
      closeSync(fd);
      closeSync(reader);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("an idle gateway's line is out within LOG_FLUSH_MS, though lines are written in chunks of LOG_WRITE_BYTES", async () => {
    const { fd, remove } = stalledPipe();
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
      remove();
    }
  });

  it('a stalled reader never blocks the logger: lines past the bound are dropped and counted, the rest written once it reads', async () => {
    const { fd, remove } = stalledPipe();
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
      const written = (await readUntilQuiet(fd))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n);
      expect(written.length).toBe(5_000 - droppedLines());
      expect(written).toEqual([...written].sort((a, b) => a - b));
      expect(written[0]).toBe(0);
    } finally {
      destination.destroy();
      remove();
    }
  }, 30_000);

  it('a line is copied a bounded number of times while earlier lines wait to be written, not once per line waiting with it', async () => {
    // The reader stalls (a pipe nobody reads), so lines queue in the destination's chunks. The
    // utf8 mode of sonic-boom measured the chunk being filled for every new line
    // (Buffer.byteLength of a string built by +=), which flattened the whole chunk each time:
    // ~6.8 KiB allocated per request line under the earn path's load, a seventh of all the
    // event loop allocated (docs/benchmarks.md).
    const { fd, remove } = stalledPipe();
    const destination = logDestination({ fd });
    const { requestLine, droppedLines } = createGatewayLogging('info', destination);
    const session = new Session();
    session.connect();
    try {
      const line = { url: '/webhooks/generic', padding: 'x'.repeat(400) };
      const lines = 4_000;
      // Every allocation sampled (every ~1 KiB on average), also of objects already collected.
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      for (let n = 0; n < lines; n += 1) requestLine.info({ n, ...line }, 'request completed');
      const { profile } = await session.post('HeapProfiler.stopSampling');
      expect(droppedLines()).toBe(0);
      const lineBytes = JSON.stringify({ level: 30, time: Date.now(), n: 0, ...line, msg: 'request completed' }).length;
      type Node = (typeof profile)['head'];
      const allocated = (function sum(node: Node): number {
        return node.selfSize + node.children.reduce((total, child) => total + sum(child), 0);
      })(profile.head);
      // pino's own serialisation, the line itself and its bytes: ~5 times the line here, whatever
      // the number of lines waiting (the utf8 mode: ~21 times, growing with the chunk).
      expect(allocated / lines).toBeLessThan(8 * lineBytes);
      // And every line reaches the reader once it reads, whole and in order.
      const written = (await readUntilQuiet(fd))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n);
      expect(written).toEqual([...Array(lines).keys()]);
    } finally {
      session.disconnect();
      await readUntilQuiet(fd);
      destination.destroy();
      remove();
    }
  }, 30_000);
});
