import { randomFillSync } from 'node:crypto';

/** Each byte's two lowercase hex digits. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Random bytes drawn 4 KiB at a time (10 per id); one pool per thread, as each has its own module state. */
const pool = new Uint8Array(4096);
let offset = pool.length;

/**
 * An RFC 9562 UUIDv7 as text: `ms` (a whole number of milliseconds since the epoch, 48 bits) in the
 * first twelve hex digits, the version `7`, then `randA` (12 bits: a counter that keeps ids of one
 * millisecond in order, or random when not given), the variant `10`, and 62 random bits.
 *
 * Written with a table of hex pairs: `ms.toString(16)` alone, a double's conversion to another
 * radix, cost ~410 ns, more than the rest of the id (docs/benchmarks.md, "Decisions the numbers
 * justify").
 */
export function uuidV7(ms: number, randA?: number): string {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += 10;
  const high = Math.floor(ms / 0x10000); // the top 32 of the 48 bits
  const low = ms - high * 0x10000;
  const a = randA === undefined ? ((pool[at]! << 4) | (pool[at + 1]! >>> 4)) & 0xfff : randA & 0xfff;
  return (
    HEX[high >>> 24]! +
    HEX[(high >>> 16) & 0xff]! +
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    '-' +
    HEX[low >>> 8]! +
    HEX[low & 0xff]! +
    '-7' +
    HEX[a >>> 8]![1]! +
    HEX[a & 0xff]! +
    '-' +
    HEX[(pool[at + 2]! & 0x3f) | 0x80]! +
    HEX[pool[at + 3]!]! +
    '-' +
    HEX[pool[at + 4]!]! +
    HEX[pool[at + 5]!]! +
    HEX[pool[at + 6]!]! +
    HEX[pool[at + 7]!]! +
    HEX[pool[at + 8]!]! +
    HEX[pool[at + 9]!]!
  );
}
