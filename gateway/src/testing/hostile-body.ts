import { gzipSync } from 'node:zlib';
import { jsonPaths, mutateJson, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { BODY_LIMIT } from '../http/body-limit.js';

/** A generated body, with the content type and encoding it goes with (the headers may still be changed). */
export interface HostileBody {
  kind: string;
  bytes: Buffer;
  contentType?: string;
  contentEncoding?: string;
}

/** Numbers JSON allows and no double holds as written. */
const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '1.0000000000000000000000001',
  '-0',
  '1e-400',
  '9007199254740993',
  '0.1e999999999',
  `1${'0'.repeat(5000)}`,
];

/** Bytes that are not UTF-8 text, or text no database stores: NUL, 0xFF, a UTF-8-encoded surrogate, an overlong slash, past U+10FFFF. */
const ODD_BYTES = [
  Buffer.from([0x00]),
  Buffer.from([0xff]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
];

const MARKER = '\u0001marker\u0001';
const MARKER_JSON = JSON.stringify(MARKER);

/**
 * `base` as JSON text with one of its values (picked by `pick`) written as `raw`: a number
 * literal in place of the value, or bytes inside a string that replaces it (`inString`).
 */
function withRawValue(base: unknown, pick: number, raw: Buffer, inString: boolean): Buffer {
  const paths = jsonPaths(base);
  const value = inString ? `v${MARKER}` : MARKER;
  const text = JSON.stringify(mutateJson(base, paths[pick % paths.length]!, 'set', value)) ?? MARKER_JSON;
  const needle = inString ? MARKER_JSON.slice(1, -1) : MARKER_JSON;
  const at = text.indexOf(needle);
  return Buffer.concat([Buffer.from(text.slice(0, at)), raw, Buffer.from(text.slice(at + needle.length))]);
}

/** A JSON object with one more key holding arrays (or objects) nested `depth` deep. */
function deeplyNested(base: unknown, depth: number, objects: boolean): Buffer {
  const open = objects ? '{"a":'.repeat(depth) : '['.repeat(depth);
  const close = objects ? '}'.repeat(depth) : ']'.repeat(depth);
  const text = JSON.stringify(base) ?? 'null';
  const inner = `${open}1${close}`;
  if (!text.startsWith('{') || text === '{}') return Buffer.from(`{"deep":${inner}}`);
  return Buffer.from(`{"deep":${inner},${text.slice(1)}`);
}

/**
 * A body made from `base` (a vendor's documented payload, an admin write's valid body): as it is,
 * a few values changed, cut short, nested deep, with a huge number, NUL or a lone surrogate, form
 * encoded, gzip-declared without being gzipped (or gzipped), over or exactly at the body limit,
 * empty, arbitrary bytes, UTF-16 or BOM-prefixed.
 */
export function hostileBody(base: unknown): fc.Arbitrary<HostileBody> {
  const json = () => Buffer.from(JSON.stringify(base) ?? 'null');
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(null).map(() => ({ kind: 'as documented', bytes: json() })) },
    {
      weight: 4,
      arbitrary: mutatedJson(base, 2).map((value) => ({ kind: 'values changed', bytes: Buffer.from(JSON.stringify(value) ?? 'null') })),
    },
    { weight: 1, arbitrary: fc.nat().map((n) => ({ kind: 'truncated', bytes: json().subarray(0, n % Math.max(1, json().length)) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(64, 1_000, 10_000, 100_000, 300_000), fc.boolean())
        .map(([depth, objects]) => ({ kind: `nested ${depth} deep`, bytes: deeplyNested(base, depth, objects) })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...HUGE_NUMBERS)).map(([pick, literal]) => ({
        kind: `huge number ${literal.slice(0, 12)}`,
        bytes: withRawValue(base, pick, Buffer.from(literal), false),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat(), fc.constantFrom('\\u0000', '\\ud800', '\\udfff', '\\ud800\\u0000', 'a\\u0000'))
        .map(([pick, escape]) => ({
          kind: `escape ${escape}`,
          bytes: withRawValue(base, pick, Buffer.from(escape), true),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat(), fc.integer({ min: 0, max: ODD_BYTES.length - 1 }))
        .map(([pick, i]) => ({ kind: `raw bytes ${ODD_BYTES[i]!.toString('hex')}`, bytes: withRawValue(base, pick, ODD_BYTES[i]!, true) })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('payload', 'fields').map((form) => ({
        kind: `form-encoded ${form}`,
        contentType: 'application/x-www-form-urlencoded',
        bytes: Buffer.from(
          form === 'payload'
            ? `payload=${encodeURIComponent(json().toString())}`
            : new URLSearchParams(
                Object.entries(base !== null && typeof base === 'object' ? base : { value: base }).map(([k, v]): [string, string] => [
                  k,
                  typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
                ]),
              ).toString(),
        ),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'gzip, gzip', 'x-unknown').map((encoding) => ({
        kind: `declared ${encoding}, not encoded`,
        contentEncoding: encoding,
        bytes: json(),
      })),
    },
    { weight: 1, arbitrary: fc.constant(null).map(() => ({ kind: 'gzipped', contentEncoding: 'gzip', bytes: gzipSync(json()) })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 200_000 }).map((over) => {
        const text = json();
        return { kind: `${over} bytes over the limit`, bytes: Buffer.concat([text, Buffer.alloc(BODY_LIMIT + over - text.length, ' ')]) };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => {
        const text = json();
        return { kind: 'exactly at the limit', bytes: Buffer.concat([text, Buffer.alloc(Math.max(0, BODY_LIMIT - text.length), ' ')]) };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', 'null', '[]', '"text"', '0', '{}', '{"":{}}')
        .map((t) => ({ kind: `body ${t || 'empty'}`, bytes: Buffer.from(t) })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }).map((a) => ({ kind: 'arbitrary bytes', bytes: Buffer.from(a) })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('utf16le', 'bom', 'utf16-bom').map((encoding) => {
        const text = JSON.stringify(base) ?? 'null';
        const bytes =
          encoding === 'bom'
            ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
            : encoding === 'utf16le'
              ? Buffer.from(text, 'utf16le')
              : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
        return { kind: `encoded ${encoding}`, bytes };
      }),
    },
  );
}
