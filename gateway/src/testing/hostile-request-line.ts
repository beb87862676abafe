import fc from 'fast-check';

// The request line a hostile or merely odd client writes: another method, the path written
// another way, another HTTP version.

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
