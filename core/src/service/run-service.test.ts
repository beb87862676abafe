import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

describe('runService', () => {
  it('a service whose closing holds the main thread is still ended: its watchdog thread kills it after the close limit and says why on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../testing/held-on-close.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A child the watchdog did not end (the test failed) is not left behind.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${stderr}`)));
    });
    const signalled = Date.now();
    child.kill('SIGTERM');
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const after = Date.now() - signalled;
    // Its own exit timer (500 ms) could not fire: the thread was held. The watchdog's kill came 500 ms after it.
    expect(ended).toEqual({ code: null, signal: 'SIGKILL' });
    expect(after).toBeGreaterThanOrEqual(1_000);
    expect(after).toBeLessThan(8_000);
    expect(stderr).toContain('still stopping 1000 ms after the signal (the main thread is held): killed');
  }, 20_000);
});
