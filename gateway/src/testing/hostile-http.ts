import { gzipSync } from 'node:zlib';
import { jsonPaths, mutateJson, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { BODY_LIMIT } from '../http/body-limit.js';

/**
 * Requests as a hostile or merely odd client writes them, for the HTTP fuzz tests on real sockets:
 * the request line, headers (duplicated, dropped, odd casing, huge, non-ASCII bytes, conflicting
 * framing), and bodies (truncated, deeply nested, huge numbers, NUL, lone surrogates, form-encoded,
 * gzip-declared, over the body limit). Each part is a fast-check arbitrary; `rawRequestBytes`
 * writes the whole request byte for byte.
 */

/** A header as written: its value as latin1 text (one byte a character) or as the exact bytes. */
export type RawHeader = [name: string, value: string | Buffer];

/** How the body is framed: by Content-Length, chunked, not at all, or in a way a server must refuse or read one way only. */
export type Framing =
  | { kind: 'length' }
  | { kind: 'none' }
  | { kind: 'chunked'; sizes: number[]; extension: boolean; trailer: boolean }
  | { kind: 'conflict'; variant: (typeof FRAMING_CONFLICTS)[number] };

export interface RawRequestParts {
  method: string;
  target: string;
  version: string;
  headers: RawHeader[];
  body: Buffer;
  framing: Framing;
}

/** Framings a request-smuggling attempt uses: two lengths, length and chunked together, an encoding list not ending in chunked… */
export const FRAMING_CONFLICTS = [
  'length-and-chunked',
  'two-lengths',
  'repeated-length',
  'length-list',
  'signed-length',
  'chunked-not-last',
  'chunked-obfuscated',
  'chunked-bad-size',
  'padded-length',
  'chunked-in-http-1.0',
] as const;

const latin1 = (value: string | Buffer) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : value);

/** `body` in chunks of the given sizes (the rest in one more), with a chunk extension and a trailer when asked. */
function chunked(body: Buffer, sizes: number[], extension: boolean, trailer: boolean): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of [...sizes, body.length]) {
    if (at >= body.length) break;
    const chunk = body.subarray(at, at + Math.max(1, size));
    at += chunk.length;
    parts.push(Buffer.from(`${chunk.length.toString(16)}${extension ? ';ext="x"' : ''}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(trailer ? '0\r\nX-Trailer: t\r\n\r\n' : '0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** The whole request as written on the socket. */
export function rawRequestBytes(parts: RawRequestParts): Buffer {
  const { body, framing } = parts;
  const headers: RawHeader[] = [...parts.headers];
  let payload = body;
  const length = String(body.length);
  switch (framing.kind) {
    case 'length':
      headers.push(['Content-Length', length]);
      break;
    case 'none':
      payload = Buffer.alloc(0);
      break;
    case 'chunked':
      headers.push(['Transfer-Encoding', 'chunked']);
      payload = chunked(body, framing.sizes, framing.extension, framing.trailer);
      break;
    case 'conflict':
      switch (framing.variant) {
        case 'length-and-chunked':
          payload = chunked(body, [7], false, false);
          headers.push(['Content-Length', length], ['Transfer-Encoding', 'chunked']);
          break;
        case 'two-lengths':
          headers.push(['Content-Length', length], ['Content-Length', String(body.length + 1)]);
          break;
        case 'repeated-length':
          headers.push(['Content-Length', length], ['Content-Length', length]);
          break;
        case 'length-list':
          headers.push(['Content-Length', `${length}, ${length}`]);
          break;
        case 'signed-length':
          headers.push(['Content-Length', `+${length}`]);
          break;
        case 'chunked-not-last':
          headers.push(['Transfer-Encoding', 'chunked, gzip'], ['Content-Length', length]);
          break;
        case 'chunked-obfuscated':
          payload = chunked(body, [5], false, false);
          headers.push(['Transfer-Encoding', 'xchunked'], ['Transfer-Encoding', 'chunked']);
          break;
        case 'padded-length':
          headers.push(['Content-Length', `00${length} `]);
          break;
        case 'chunked-in-http-1.0':
          payload = chunked(body, [3], false, false);
          headers.push(['Transfer-Encoding', 'chunked']);
          break;
        case 'chunked-bad-size':
          payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}zz\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
          headers.push(['Transfer-Encoding', 'chunked']);
          break;
      }
      break;
  }
  const version = framing.kind === 'conflict' && framing.variant === 'chunked-in-http-1.0' ? 'HTTP/1.0' : parts.version;
  const line = Buffer.from(`${parts.method} ${parts.target}${version ? ` ${version}` : ''}\r\n`, 'latin1');
  const head = headers.flatMap(([name, value]) => [latin1(name), Buffer.from(': '), latin1(value), Buffer.from('\r\n')]);
  return Buffer.concat([line, ...head, Buffer.from('\r\n'), payload]);
}

/** Letters, digits and `. _ : -`, 1 to 128: what the gateway echoes as X-Request-ID (http/request-id.ts). */
export const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The X-Request-ID the answer must carry: the request's one X-Request-ID when acceptable (as Node reads it: trimmed). */
export function expectedRequestId(headers: readonly RawHeader[]): string | undefined {
  const given = headers.filter(([name]) => name.toLowerCase() === 'x-request-id');
  if (given.length !== 1) return undefined;
  const value = latin1(given[0]![1])
    .toString('latin1')
    .replace(/^[ \t]+|[ \t]+$/g, '');
  return ACCEPTABLE_REQUEST_ID.test(value) ? value : undefined;
}

// ---- bodies ----------------------------------------------------------------------------------

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

// ---- request line ----------------------------------------------------------------------------

/** Methods a client may send: others of HTTP's, WebDAV's, none at all (lower case, made up), and CONNECT. */
const OTHER_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'PRI',
  'PROPFIND',
  'SEARCH',
  'PURGE',
  'post',
  'FOO',
];

export const hostileMethod = (usual: string): fc.Arbitrary<string> =>
  fc.oneof({ weight: 17, arbitrary: fc.constant(usual) }, { weight: 3, arbitrary: fc.constantFrom(...OTHER_METHODS) });

/** `path` as sent, or written another way: a trailing slash, case, dot segments, percent-escapes right and wrong, a query, very long, absolute form. */
export function hostileTarget(path: string): fc.Arbitrary<string> {
  const odd = fc.oneof(
    fc.constantFrom(
      `${path}/`,
      path.toUpperCase(),
      `/${path}`,
      path.replace(/\/([^/]*)$/, '/./$1'),
      path.replace(/\/([^/]*)$/, '/x/../$1'),
      path.replace(/\/([^/]*)$/, '/%2e%2e/$1'),
      path.replace(/\/([^/]*)$/, '%2F$1'),
      path.replace(/([a-z])/, (c) => `%${c.charCodeAt(0).toString(16)}`),
      `${path}?`,
      `${path}?a=1&a=2&%zz=%ff`,
      `${path}#fragment`,
      `${path};matrix=1`,
      `${path}%00`,
      `${path}%`,
      `${path}%zz`,
      `${path}%C0%AF`,
      `${path}/%ED%A0%80`,
      `${path}/%E2%80%AE`,
      `${path}\u00e9`,
      `${path} x`,
      `http://loyalty.example.com${path}`,
      '*',
    ),
    fc
      .tuple(fc.constantFrom('/', '?q=', '/%41'), fc.constantFrom(101, 1_000, 6_000, 20_000))
      .map(([joint, n]) => `${path}${joint}${(joint === '/%41' ? '%41' : 'a').repeat(joint === '/%41' ? Math.floor(n / 3) : n)}`),
  );
  return fc.oneof({ weight: 4, arbitrary: fc.constant(path) }, { weight: 1, arbitrary: odd });
}

export const hostileVersion: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', '') },
);

export function hostileFraming(bodyLength: number): fc.Arbitrary<Framing> {
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant<Framing>({ kind: 'length' }) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          sizes: fc.array(fc.integer({ min: 1, max: Math.max(1, bodyLength) }), { maxLength: 4 }),
          extension: fc.boolean(),
          trailer: fc.boolean(),
        })
        .map((c): Framing => ({ kind: 'chunked', ...c })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...FRAMING_CONFLICTS).map((variant): Framing => ({ kind: 'conflict', variant })) },
  );
}

// ---- headers ---------------------------------------------------------------------------------

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

// ---- whole requests --------------------------------------------------------------------------

/** One generated request, as written, with what its answer is judged by. */
export interface RawShot {
  /** What was done to it, for the report of a failure. */
  kind: string;
  bytes: Buffer;
  /** A HEAD request: its answer has no body. */
  head: boolean;
  /** The X-Request-ID its answer must echo. */
  requestId: string | undefined;
}

/** A request as its client means it: the method, path and (JSON) body, before anything odd is done to it. */
export interface BaseRequest<A> {
  kind: string;
  method: string;
  path: string;
  /** The JSON body (undefined: none). */
  body: unknown;
  /** What the request needs to be authenticated, for `headers`. */
  context: A;
}

export interface HostileShotOptions<A, Auth extends string> {
  base: fc.Arbitrary<BaseRequest<A>>;
  /** How the request authenticates: the first is the right way (used for the requests changed in nothing else). */
  auth: fc.Arbitrary<Auth>;
  signed: Auth;
  /** The headers a client sends with `body` (its content type, the signature over these bytes or what `auth` puts instead). */
  headers(base: BaseRequest<A>, body: HostileBody, auth: Auth): RawHeader[];
}

const MODES = ['as sent', 'body', 'headers', 'line', 'framing', 'everything'] as const;

/**
 * Generated requests from a client's own (`base`): one in five as sent and signed, the others
 * with their body, their headers, their request line or their framing made hostile (one of them,
 * or all at once), and their authentication right for most.
 */
export function hostileShot<A, Auth extends string>(options: HostileShotOptions<A, Auth>): fc.Arbitrary<RawShot> {
  const mode = fc.constantFrom(...MODES, 'as sent', 'body');
  return fc.tuple(options.base, mode).chain(([base, mode]) => {
    const hostile = (part: (typeof MODES)[number]) => mode === part || mode === 'everything';
    const plain: HostileBody = {
      kind: 'as sent',
      bytes: base.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(base.body)),
    };
    return fc
      .record({
        body: hostile('body') ? hostileBody(base.body ?? {}) : fc.constant(plain),
        auth: mode === 'as sent' ? fc.constant(options.signed) : options.auth,
        method: hostile('line') ? hostileMethod(base.method) : fc.constant(base.method),
        target: hostile('line') ? hostileTarget(base.path) : fc.constant(base.path),
        version: hostile('line') ? hostileVersion : fc.constant('HTTP/1.1'),
        changes: hostile('headers')
          ? fc.array(headerChange, { minLength: 1, maxLength: 3 })
          : fc.constant<Array<{ label: string; change: HeaderChange }>>([]),
        contentType: hostile('headers') ? fc.option(oddContentType, { nil: undefined, freq: 2 }) : fc.constant(undefined),
        framing: hostile('framing') ? hostileFraming(4_096) : fc.constant<Framing>({ kind: 'length' }),
        // Half the requests carry an id of their own, which every answer must echo.
        requestId: fc.option(fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/), { nil: undefined }),
      })
      .map(({ body, auth, method, target, version, changes, contentType, framing, requestId }): RawShot => {
        let headers: RawHeader[] = [
          ['Host', 'loyalty.example.com'],
          ...options.headers(base, body, auth),
          ...(requestId === undefined ? [] : [['X-Request-ID', requestId] as RawHeader]),
        ];
        if (contentType !== undefined) {
          headers = headers.filter(([name]) => name.toLowerCase() !== 'content-type');
          if (contentType !== null) headers.push(['Content-Type', contentType]);
        }
        for (const { change } of changes) headers = change(headers);
        const kind = [
          base.kind,
          `${method} ${target.length > 60 ? `${target.slice(0, 60)}… (${target.length})` : target} ${version}`,
          body.kind,
          `auth ${auth}`,
          ...(contentType !== undefined ? [`content type ${contentType}`] : []),
          ...changes.map((c) => c.label),
          framing.kind === 'length' ? '' : `framing ${framing.kind === 'conflict' ? framing.variant : framing.kind}`,
        ]
          .filter(Boolean)
          .join(' | ');
        return {
          kind,
          bytes: rawRequestBytes({ method, target, version, headers, body: body.bytes, framing }),
          head: method === 'HEAD',
          requestId: expectedRequestId(headers),
        };
      });
  });
}
