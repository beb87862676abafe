import fc from 'fast-check';
import { hostileBody, type HostileBody } from './hostile-body.js';
import { headerChange, oddContentType, type HeaderChange } from './hostile-headers.js';
import { expectedRequestId, hostileFraming, rawRequestBytes, type Framing, type RawHeader } from './hostile-request-bytes.js';
import { hostileMethod, hostileTarget, hostileVersion } from './hostile-request-line.js';

// Requests as a hostile or merely odd client writes them, for the HTTP fuzz tests on real sockets:
// the request line (hostile-request-line.ts), headers (duplicated, dropped, odd casing, huge,
// non-ASCII bytes: hostile-headers.ts), bodies (truncated, deeply nested, huge numbers, NUL, lone
// surrogates, form-encoded, gzip-declared, over the body limit: hostile-body.ts) and framing
// (conflicting, chunked: hostile-request-bytes.ts, which writes the whole request byte for byte).
// Each part is a fast-check arbitrary; hostileShot puts them together.

export { rawRequestBytes };
export type { HostileBody, RawHeader };

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
