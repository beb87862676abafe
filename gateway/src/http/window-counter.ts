import type { Redis } from 'ioredis';
import { replyAt, turnBatcher } from '../stores/redis-turn.js';

/** A key's count in its current window and the milliseconds left in it (0 and 0 when it has none). */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/**
 * Fixed-window counters, the one counter every limit of the gateway counts with (the
 * per-connection rate limit, the refusal limit per client address, the unsigned-handshake limit):
 * a key's window begins at its first hit and lasts `windowMs`; its count starts again after it.
 * In this process an answer is a value; in Redis, a promise.
 */
export interface WindowCounter {
  /** Count one hit of `key`; its count after it and the time left in its window. */
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /** The key's count and time left without counting. */
  read(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
}

export interface LocalWindowCounterOptions {
  /** Milliseconds since the epoch: the clock every window is measured on. */
  clock: () => number;
  /**
   * Keys held at most (default: no bound). When full, a new key first drops the key whose window
   * began first: a bound for a limit anyone can add keys to, at the cost of forgetting the oldest count.
   */
  maxKeys?: number | undefined;
}

interface Window {
  count: number;
  start: number;
}

const NONE: WindowCount = Object.freeze({ count: 0, ttlMs: 0 });

/**
 * The counters in this process: one Map entry per key whose window has not ended (about 100
 * bytes each). A key whose window ended is re-inserted when it is hit again, so the Map's order is
 * the order windows began in; ended windows are swept at most once per window, from the front
 * (amortised O(1), no per-request eviction and no timers). Without `maxKeys` nothing is forgotten
 * early: @fastify/rate-limit's own store is an LRU of 5,000 keys, past which it forgets counts and
 * the limit silently stops holding for those keys.
 */
export class LocalWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, Window>();
  private readonly clock: () => number;
  private readonly maxKeys: number;
  private sweptAt: number;

  constructor(options: LocalWindowCounterOptions) {
    this.clock = options.clock;
    this.maxKeys = options.maxKeys ?? Number.POSITIVE_INFINITY;
    this.sweptAt = this.clock();
  }

  /** Keys held (windows not yet swept). */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string, windowMs: number): WindowCount {
    const now = this.clock();
    if (now - this.sweptAt >= windowMs) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (window === undefined || window.start + windowMs <= now) {
      if (window !== undefined) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.makeRoom(now, windowMs);
      window = { count: 0, start: now };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, ttlMs: window.start + windowMs - now };
  }

  read(key: string, windowMs: number): WindowCount {
    const now = this.clock();
    const window = this.windows.get(key);
    if (window === undefined || window.start + windowMs <= now) return NONE;
    return { count: window.count, ttlMs: window.start + windowMs - now };
  }

  /** Drops the windows that ended, oldest first, up to the first one still running. */
  private sweep(now: number, windowMs: number): void {
    this.sweptAt = now;
    for (const [key, window] of this.windows) {
      if (window.start + windowMs > now) break;
      this.windows.delete(key);
    }
  }

  private makeRoom(now: number, windowMs: number): void {
    this.sweep(now, windowMs);
    if (this.windows.size < this.maxKeys) return;
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}

/**
 * INCRBY the hits of one turn (ARGV[2]); a new key (or one that lost its expiry) gets the window
 * as its expiry. Answers the count after them and the time left.
 */
const HIT = `
local hits = tonumber(ARGV[2])
local count = redis.call('INCRBY', KEYS[1], hits)
local ttl = -1
if count > hits then ttl = redis.call('PTTL', KEYS[1]) end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** GET and PTTL in one round trip; no key (or no expiry) is no time left. */
const READ = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(count), ttl}
`;

interface WindowCommands {
  lgWindowHits(key: string, windowMs: number, hits: number): Promise<[number, number]>;
  lgWindowRead(key: string): Promise<[number, number]>;
}

/** A hit, or a read, waiting for its turn's answer. */
interface Call {
  key: string;
  /** The window of a hit; a read has none. */
  windowMs: number | null;
  resolve(count: WindowCount): void;
  reject(error: Error): void;
}

/** The hits of one key (and window) in one turn, in the order they came. */
interface KeyHits {
  key: string;
  windowMs: number;
  hits: Call[];
}

/** What one turn sent: per key its hits' command, then per key its reads' command. */
interface Sent {
  hits: KeyHits[];
  reads: Array<{ key: string; reads: Call[] }>;
}

const toCount = ([count, ttlMs]: [number, number]): WindowCount => ({ count, ttlMs });

/**
 * The counters in Redis, shared by every gateway process (REDIS_URL): one key per counted key,
 * `prefix` + key, counted and given its expiry in one script (a process stopping between INCR and
 * PEXPIRE cannot leave a count that never ends). The window is Redis's expiry, on Redis's clock.
 * The hits of one turn of the event loop go as one script call per key (stores/redis-turn.ts).
 */
export class RedisWindowCounter implements WindowCounter {
  private readonly gather: (call: Call) => void;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    const commands = redis as unknown as Partial<WindowCommands>;
    if (typeof commands.lgWindowHits !== 'function') redis.defineCommand('lgWindowHits', { numberOfKeys: 1, lua: HIT });
    if (typeof commands.lgWindowRead !== 'function') redis.defineCommand('lgWindowRead', { numberOfKeys: 1, lua: READ });
    // A turn's hits of one key are one INCRBY: they take the count up to its new total in the order
    // they came, exactly as as many INCRs would have. Its reads go after its hits (one per key), so
    // no read overtakes a hit made before it (the refusal limit reads what it has just counted).
    this.gather = turnBatcher<Call, Sent>(redis, {
      send: (pipeline, calls) => {
        const hitsByKey = new Map<string, KeyHits>();
        const readsByKey = new Map<string, Call[]>();
        for (const call of calls) {
          if (call.windowMs === null) {
            const reads = readsByKey.get(call.key);
            if (reads) reads.push(call);
            else readsByKey.set(call.key, [call]);
            continue;
          }
          const id = `${call.windowMs}:${call.key}`;
          let keyHits = hitsByKey.get(id);
          if (!keyHits) hitsByKey.set(id, (keyHits = { key: call.key, windowMs: call.windowMs, hits: [] }));
          keyHits.hits.push(call);
        }
        const sent: Sent = { hits: [...hitsByKey.values()], reads: [...readsByKey].map(([key, reads]) => ({ key, reads })) };
        const batch = pipeline as unknown as WindowCommands;
        for (const keyHits of sent.hits) void batch.lgWindowHits(this.prefix + keyHits.key, keyHits.windowMs, keyHits.hits.length);
        for (const { key } of sent.reads) void batch.lgWindowRead(this.prefix + key);
        return { sent, commands: sent.hits.length + sent.reads.length };
      },
      settle: (sent, replies) => {
        sent.hits.forEach((keyHits, i) => {
          const [error, value] = replyAt(replies, i);
          if (error) return keyHits.hits.forEach((hit) => hit.reject(error));
          const [total, ttlMs] = value as [number, number];
          const first = total - keyHits.hits.length + 1;
          keyHits.hits.forEach((hit, n) => hit.resolve({ count: first + n, ttlMs }));
        });
        sent.reads.forEach(({ reads }, i) => {
          const [error, value] = replyAt(replies, sent.hits.length + i);
          if (error) return reads.forEach((read) => read.reject(error));
          const count = toCount(value as [number, number]);
          reads.forEach((read) => read.resolve(count));
        });
      },
    });
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return new Promise((resolve, reject) => this.gather({ key, windowMs, resolve, reject }));
  }

  read(key: string): Promise<WindowCount> {
    return new Promise((resolve, reject) => this.gather({ key, windowMs: null, resolve, reject }));
  }
}
