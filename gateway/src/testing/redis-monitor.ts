import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The commands clients send to a real Redis while a test runs, seen through MONITOR and kept only
 * when one of their arguments starts with `prefix` (a test's own keys: the shared server serves
 * other tests at the same time). Commands a Lua script runs are left out: what counts is what the
 * clients sent. `stop()` sends a marker under the prefix, waits until MONITOR has shown it, so
 * every command sent before is in, and answers them as [name, ...arguments].
 */
export async function monitorCommands(redis: Redis, prefix: string): Promise<{ stop(): Promise<string[][]> }> {
  const monitor = await redis.monitor();
  const seen: string[][] = [];
  const marker = `${prefix}monitor-end:${randomBytes(4).toString('hex')}`;
  let onMarker: () => void = () => {};
  const ended = new Promise<void>((resolve) => (onMarker = resolve));
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return;
    if (args.includes(marker)) return onMarker();
    if (args.slice(1).some((arg) => arg.startsWith(prefix))) seen.push([args[0]!.toLowerCase(), ...args.slice(1)]);
  });
  return {
    async stop() {
      await redis.exists(marker);
      await ended;
      monitor.disconnect();
      return seen;
    },
  };
}
