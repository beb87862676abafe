import { randomBytes } from 'node:crypto';

// The journal's ids and the hashes its indexes are keyed by. Every id, region and key stored by an
// earlier build must stay valid: none of these changes without a migration.

/**
 * A journal id that sorts by time: ms in base 36, a per-process sequence, and 48 random bits drawn
 * once per process (unique across processes without drawing randomness per entry). New rows land
 * at the end of the primary-key index instead of at random places in it, and entries of the same
 * millisecond keep the order they were recorded in.
 */
const PROCESS_TAG = randomBytes(6).toString('hex');
let sequence = 0;
// The last time's floor: under load several entries a millisecond share it, and a number in base
// 36 is converted by V8's runtime, not inline (idFloor was ~a fifth of a row's building).
let floorMs = Number.NaN;
let floor = '';
export const timeOrderedId = (atMs: number): string => {
  sequence = (sequence + 1) % 36 ** 5;
  if (atMs !== floorMs) {
    floor = idFloor(atMs);
    floorMs = atMs;
  }
  return `${floor}-${sequence.toString(36).padStart(5, '0')}-${PROCESS_TAG}`;
};

/**
 * The time an id begins with: the lowest id of an entry received at `ms` or later (every id has
 * this layout since migration 0012), so a range of ids is a range of time and the primary key
 * serves the list's order, its bounds and the pruning by age.
 */
export const idFloor = (ms: number): string => Math.max(0, Math.floor(ms)).toString(36).padStart(9, '0');

/** When the entry with this id was received (its first nine characters). */
export const receivedAtOfId = (id: string): number => Number.parseInt(id.slice(0, 9), 36);

/**
 * The 32-bit key the journal indexes a transaction id by, after its region (migration 0008): 4
 * bytes in the index instead of the id's text. The high 16 bits are FNV-1a of all but the id's
 * last two characters, the low 16 bits those two characters (a byte each); that layout placed
 * ordered ids next to each other when the key led its index (migration 0007). Keys may collide:
 * lookups compare the key, then the id. Stored keys must stay valid: never change this function
 * without a migration.
 */
export function transactionKey(id: string): number {
  const cut = Math.max(0, id.length - 2);
  let tail = 0;
  for (let i = cut; i < id.length; i += 1) tail = (tail << 8) | (id.charCodeAt(i) & 0xff);
  return ((fnv1a(id, cut) >>> 16) << 16) | tail;
}

/** FNV-1a of the id's first `end` characters (UTF-16 code units), 32 bits unsigned. */
export function fnv1a(id: string, end = id.length): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < end; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * How many regions the request and transaction indexes are cut into (migration 0008): entries are
 * appended at the end of one of them. Fewer regions, fewer pages a batch dirties (64 cost the
 * writer ~4 µs more per entry than 16); more regions, shorter lookups (a lookup reads 1/16 of the
 * journal's index entries: 4.4 ms at 1,000,000 entries). Stored regions must stay valid: never
 * change this without a migration.
 */
export const REGIONS = 16;

/** A hash's region and key (idRegion, requestKey): the request id is hashed once per entry for both. */
export const regionOf = (hash: number): number => hash % REGIONS;
export const keyOf = (hash: number): number => hash | 0;

/**
 * The region of the request or transaction index an id's entries go to (migration 0008), from a
 * hash of the whole id, so random and ordered ids alike spread evenly over the regions. Stored
 * regions must stay valid: never change this function without a migration.
 */
export const idRegion = (id: string): number => regionOf(fnv1a(id));

/**
 * The 32-bit key the request index compares after its region (migration 0008): the same hash, as a
 * signed integer (PostgreSQL's `integer`). Keys may collide: lookups compare the key, then the id.
 * Stored keys must stay valid: never change this function without a migration.
 */
export const requestKey = (id: string): number => keyOf(fnv1a(id));

/**
 * The time a request id written as a UUIDv7 carries (milliseconds since 1970), or undefined for
 * any other id. The ids the gateway generates are UUIDv7s of the moment the request arrived
 * (http/request-id.ts), and their entries are received at that millisecond: such an entry is
 * found by the primary key's range of that millisecond (its ids begin with their time), so it
 * needs no entry of its own in the request index (migration 0016). Which entries were left out of
 * it is decided by this function on both sides: an entry whose request id's time is its own
 * (journal-rows.ts), a lookup by a request id that carries a time (journal-queries.ts).
 */
export function requestIdTime(requestId: string): number | undefined {
  // 8-4-4-4-12 lowercase hex digits, version 7; the time is the first 12 digits. Read a character
  // at a time: no pattern, no slices (once per entry on the event loop).
  if (requestId.length !== 36 || requestId.charCodeAt(14) !== 0x37) return undefined;
  let time = 0;
  for (let i = 0; i < 36; i += 1) {
    const c = requestId.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return undefined;
      continue;
    }
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return undefined;
    if (i < 13) time = time * 16 + digit;
  }
  return time;
}
