import fc from 'fast-check';

// A request written byte for byte (the request line, headers as latin1 or exact bytes, the body in
// its framing), the framings a request-smuggling attempt uses, and the X-Request-ID its answer
// must echo.

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
