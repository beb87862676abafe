import fc from 'fast-check';
import type { RawHeader } from './hostile-request-bytes.js';

// Headers a hostile or merely odd client writes: odd values, changes to the whole set (casing,
// duplicates, drops, junk, huge or many, Expect, Connection, X-Request-ID), odd content types.

/** A header value a client should not send, or sends wrong: junk, non-ASCII bytes, UTF-8, a control byte, empty, very long, padded. */
export const oddHeaderValue: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map((a) => Buffer.from(a.map((b) => 0x80 | b))),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((s) => Buffer.from(s.replace(/[\r\n]/g, ''), 'utf8')),
  fc.constantFrom('\u0001', '\u007f', 'a\u0000b', '\u000b'),
  fc.constant(''),
  fc.integer({ min: 4_000, max: 20_000 }).map((n) => 'v'.repeat(n)),
  fc.constantFrom('  padded  ', '\tvalue\t'),
);

/** One thing done to a request's headers. */
export type HeaderChange = (headers: RawHeader[]) => RawHeader[];

const flipCase = (name: string, mask: number) =>
  [...name].map((c, i) => ((mask >> (i % 31)) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');

/** Changes to a request's headers: odd casing, one duplicated, dropped or garbled, junk added, huge or many, Expect, Connection, X-Request-ID. */
export const headerChange: fc.Arbitrary<{ label: string; change: HeaderChange }> = fc.oneof(
  fc.nat().map((mask) => ({ label: 'odd casing', change: (h: RawHeader[]) => h.map(([n, v]): RawHeader => [flipCase(n, mask), v]) })),
  fc.tuple(fc.nat(), fc.option(oddHeaderValue, { nil: undefined })).map(([pick, value]) => ({
    label: `duplicated${value === undefined ? '' : ' with another value'}`,
    change: (h: RawHeader[]): RawHeader[] => {
      if (h.length === 0) return h;
      const [name, same] = h[pick % h.length]!;
      return [...h, [name, value ?? same]];
    },
  })),
  fc.nat().map((pick) => ({
    label: 'one dropped',
    change: (h: RawHeader[]) => h.filter((_, i) => i !== pick % Math.max(1, h.length)),
  })),
  fc.tuple(fc.nat(), oddHeaderValue).map(([pick, value]) => ({
    label: 'one garbled',
    change: (h: RawHeader[]) => h.map(([n, v], i): RawHeader => [n, i === pick % Math.max(1, h.length) ? value : v]),
  })),
  fc.tuple(fc.constantFrom('X-Junk', 'x-forwarded-for', 'Bad Name', 'N\u00e4me', 'X(1)', ''), oddHeaderValue).map(([name, value]) => ({
    label: `junk header ${JSON.stringify(name)}`,
    change: (h: RawHeader[]) => [...h, [name, value] as RawHeader],
  })),
  fc
    .constantFrom(4_000, 12_000, 17_000, 40_000)
    .map((n) => ({ label: `${n}-byte header`, change: (h: RawHeader[]) => [...h, ['X-Pad', 'p'.repeat(n)] as RawHeader] })),
  fc.constantFrom(100, 2_100).map((n) => ({
    label: `${n} more headers`,
    change: (h: RawHeader[]) => [...h, ...Array.from({ length: n }, (_, i): RawHeader => [`X-H${i}`, 'v'])],
  })),
  fc
    .constantFrom('100-continue', '100-Continue', 'foo', '')
    .map((value) => ({ label: `Expect: ${value}`, change: (h: RawHeader[]) => [...h, ['Expect', value] as RawHeader] })),
  fc.constantFrom('close', 'keep-alive', 'Upgrade|websocket', 'Upgrade|h2c', 'foo, close').map((value) => ({
    label: `Connection: ${value}`,
    change: (h: RawHeader[]) => {
      const [connection, upgrade] = value.split('|');
      return [...h, ['Connection', connection!] as RawHeader, ...(upgrade ? [['Upgrade', upgrade] as RawHeader] : [])];
    },
  })),
  fc
    .oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), fc.constantFrom('x'.repeat(129), 'id with space', 'caf\u00e9', 'a/b', ''))
    .map((id) => ({ label: 'X-Request-ID', change: (h: RawHeader[]) => [...h, ['X-Request-ID', id] as RawHeader] })),
  fc.constant({ label: 'folded header', change: (h: RawHeader[]) => [...h, ['X-Folded', 'a\r\n b'] as RawHeader] }),
);

/** The content type a body is declared as: as its kind says, or another (odd charsets, other types, none, garbled). */
export const oddContentType: fc.Arbitrary<string | null> = fc.constantFrom(
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset="latin1"',
  'application/json;;;',
  'application/vnd.api+json',
  'application/jsonx',
  '*/*',
  'json',
);
