import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { VendorApiError, createHttpClient } from './http-client.js';
import { DEVELOPMENT_OUTBOUND_POLICY, VendorApiBaseUrl, outboundUrlProblem, type OutboundPolicy } from './outbound-url.js';

const PRODUCTION: OutboundPolicy = { allowLoopback: false, allowHosts: [] };

describe('outboundUrlProblem', () => {
  it.each([
    ['https://connect.squareup.com/v2/orders/1', null],
    ['https://api.clover.com/v3/merchants/X', null],
    ['https://203.0.113.10/api', null],
  ])('%s is allowed anywhere', (url, expected) => {
    expect(outboundUrlProblem(url, PRODUCTION)).toBe(expected);
    expect(outboundUrlProblem(url, DEVELOPMENT_OUTBOUND_POLICY)).toBe(expected);
  });

  it.each([
    ['file:///etc/passwd', 'uses file: (vendor APIs are called over https:)'],
    ['gopher://example.com/', 'uses gopher: (vendor APIs are called over https:)'],
    ['javascript:alert(1)', 'uses javascript: (vendor APIs are called over https:)'],
    ['http://169.254.169.254/latest/meta-data/', 'points at a cloud metadata address (169.254.169.254)'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'points at a cloud metadata address (metadata.google.internal)'],
    ['http://[fd00:ec2::254]/', 'points at a cloud metadata address (fd00:ec2::254)'],
    ['https://169.254.10.1/', 'points at a link-local address (169.254.10.1)'],
    ['https://[fe80::1]/', 'points at a link-local address (fe80::1)'],
    ['https://10.0.0.5/', 'points at a private address (10.0.0.5); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    ['https://192.168.1.20/', 'points at a private address (192.168.1.20); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    ['https://172.20.0.1/', 'points at a private address (172.20.0.1); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    ['https://0.0.0.0/', 'points at an unspecified address (0.0.0.0); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    [
      'http://api.example.com/',
      'uses http: to api.example.com (only https:, except to loopback outside production or to a host in GATEWAY_OUTBOUND_ALLOW)',
    ],
    ['https://user:pass@api.example.com/', "carries credentials in the URL (send them as the adapter's headers)"],
    ['not a url', 'is not a URL'],
  ])('%s is refused everywhere', (url, problem) => {
    expect(outboundUrlProblem(url, PRODUCTION)).toBe(problem);
    expect(outboundUrlProblem(url, DEVELOPMENT_OUTBOUND_POLICY)).toBe(problem);
  });

  it('loopback (http: too) outside production only', () => {
    for (const url of ['http://127.0.0.1:4000/v2', 'http://localhost:4000/', 'https://[::1]:8443/']) {
      expect(outboundUrlProblem(url, DEVELOPMENT_OUTBOUND_POLICY)).toBeNull();
      expect(outboundUrlProblem(url, PRODUCTION)).toMatch(/^points at a loopback address \(.+\), refused in production$/);
    }
  });

  // Every spelling of an inward address is judged as the address it is (issue 35): new URL()
  // writes an IPv4-mapped address in hex ([::ffff:7f00:1]), so a dotted check never saw it.
  it.each([
    ['https://[::ffff:127.0.0.1]:8443/', 'loopback', '127.0.0.1'],
    ['https://[::ffff:7f00:1]/', 'loopback', '127.0.0.1'],
    ['https://[::7f00:1]/', 'loopback', '127.0.0.1'],
    ['https://[64:ff9b::7f00:1]/', 'loopback', '127.0.0.1'],
    ['https://[::ffff:0:7f00:1]/', 'loopback', '127.0.0.1'],
    ['https://[2002:7f00:1::]/', 'loopback', '127.0.0.1'],
    ['https://0x7f.1/', 'loopback', '127.0.0.1'],
    ['https://2130706433/', 'loopback', '127.0.0.1'],
    ['https://0177.0.0.01/', 'loopback', '127.0.0.1'],
    ['https://localhost./', 'loopback', 'localhost'],
    ['https://api.localhost./', 'loopback', 'api.localhost'],
  ])('%s is the %s address %s: refused in production, allowed outside it', (url, kind, host) => {
    expect(outboundUrlProblem(url, PRODUCTION)).toBe(`points at a ${kind} address (${host}), refused in production`);
    expect(outboundUrlProblem(url, DEVELOPMENT_OUTBOUND_POLICY)).toBeNull();
  });

  it.each([
    ['https://[::ffff:a9fe:a9fe]/', 'points at a cloud metadata address (169.254.169.254)'],
    ['https://[::ffff:169.254.169.254]/', 'points at a cloud metadata address (169.254.169.254)'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'points at a cloud metadata address (169.254.169.254)'],
    ['https://0xa9fea9fe/', 'points at a cloud metadata address (169.254.169.254)'],
    ['https://metadata.google.internal./computeMetadata/v1/', 'points at a cloud metadata address (metadata.google.internal)'],
    ['https://METADATA.google.internal../', 'points at a cloud metadata address (metadata.google.internal)'],
    ['http://[fd00:ec2:0::254]/', 'points at a cloud metadata address (fd00:ec2::254)'],
    ['https://[::ffff:a9fe:a01]/', 'points at a link-local address (169.254.10.1)'],
    ['https://[::ffff:0.0.0.0]/', 'points at an unspecified address (0.0.0.0); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    ['https://[::ffff:a00:5]/', 'points at a private address (10.0.0.5); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
    ['https://[64:ff9b::c0a8:114]/', 'points at a private address (192.168.1.20); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
  ])('%s is refused everywhere: %s', (url, problem) => {
    expect(outboundUrlProblem(url, PRODUCTION)).toBe(problem);
    expect(outboundUrlProblem(url, DEVELOPMENT_OUTBOUND_POLICY)).toBe(problem);
  });

  it('an address embedding a public IPv4 address stays public', () => {
    expect(outboundUrlProblem('https://[::ffff:cb00:710a]/', PRODUCTION)).toBeNull();
    expect(outboundUrlProblem('https://[64:ff9b::cb00:710a]/', PRODUCTION)).toBeNull();
    expect(outboundUrlProblem('https://[2606:4700::6810:84e5]/', PRODUCTION)).toBeNull();
  });

  it('an explicit allow-list admits a named host over http: or https:, but never a metadata address', () => {
    const policy: OutboundPolicy = { allowLoopback: false, allowHosts: ['erp.internal', '10.0.0.5', '169.254.169.254'] };
    expect(outboundUrlProblem('http://erp.internal:8080/api', policy)).toBeNull();
    expect(outboundUrlProblem('https://10.0.0.5/api', policy)).toBeNull();
    expect(outboundUrlProblem('http://169.254.169.254/', policy)).toBe('points at a cloud metadata address (169.254.169.254)');
    expect(outboundUrlProblem('https://10.0.0.6/api', policy)).toMatch(/private address/);
  });
});

describe('the HTTP client enforces its policy before anything is sent', () => {
  it('a refused URL is a non-retryable VendorApiError and no request leaves', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/orders`;
    try {
      const error = await createHttpClient({ outbound: PRODUCTION })
        .json(url)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VendorApiError);
      expect((error as VendorApiError).retryable).toBe(false);
      expect((error as VendorApiError).message).toBe(
        'vendor API URL refused by the outbound policy: it points at a loopback address (127.0.0.1), refused in production',
      );
      expect(hits).toBe(0);
      await expect(createHttpClient({ outbound: DEVELOPMENT_OUTBOUND_POLICY }).json(url)).resolves.toEqual({});
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('VendorApiBaseUrl (provider settings)', () => {
  it('accepts http(s) base URLs and refuses other schemes, credentials, queries', () => {
    expect(VendorApiBaseUrl.safeParse('https://connect.squareup.com').success).toBe(true);
    expect(VendorApiBaseUrl.safeParse('http://127.0.0.1:4010').success).toBe(true);
    expect(VendorApiBaseUrl.safeParse('not a url').error?.issues.map((i) => i.message)).toEqual(['must be an http(s) URL']);
    for (const bad of [
      'file:///etc/passwd',
      'gopher://x',
      'javascript:alert(1)',
      'https://u:p@x.example',
      'https://x.example/?token=1',
      'ftp://x',
    ]) {
      expect(VendorApiBaseUrl.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('refuses cloud metadata and link-local addresses when saved, in any spelling, whatever the environment', () => {
    for (const [url, message] of [
      ['http://169.254.169.254/latest', 'must not point at a cloud metadata address (169.254.169.254)'],
      ['https://[::ffff:a9fe:a9fe]', 'must not point at a cloud metadata address (169.254.169.254)'],
      ['https://metadata.google.internal./', 'must not point at a cloud metadata address (metadata.google.internal)'],
      ['http://[fd00:ec2::254]', 'must not point at a cloud metadata address (fd00:ec2::254)'],
      ['https://169.254.10.1', 'must not point at a link-local address (169.254.10.1)'],
      ['https://[fe80::1]', 'must not point at a link-local address (fe80::1)'],
    ]) {
      expect(
        VendorApiBaseUrl.safeParse(url).error?.issues.map((i) => i.message),
        url,
      ).toEqual([message]);
    }
    // Where else it may point depends on the environment: judged when called.
    for (const url of ['http://127.0.0.1:4010', 'https://[::ffff:7f00:1]:4010', 'https://10.0.0.5', 'https://erp.internal']) {
      expect(VendorApiBaseUrl.safeParse(url).success, url).toBe(true);
    }
  });

  it('refuses an empty path segment and an overlong URL, so what adapters do with it stays cheap', () => {
    const slashes = `https://api.clover.com${'/'.repeat(40_000)}v3`;
    let transformed = 0;
    const trimmed = VendorApiBaseUrl.transform((url) => {
      transformed += 1;
      return url;
    });
    expect(trimmed.safeParse(slashes).error?.issues.map((i) => i.message)).toEqual([
      'must be at most 2048 characters',
      'must not contain an empty path segment (//)',
    ]);
    expect(trimmed.safeParse('https://api.clover.com//v3').error?.issues.map((i) => i.message)).toEqual([
      'must not contain an empty path segment (//)',
    ]);
    expect(transformed).toBe(0); // a schema built on it never sees the value
    expect(trimmed.safeParse('https://api.clover.com/').success).toBe(true);
    expect(trimmed.safeParse(`https://api.example.com/${'a'.repeat(2000)}`).success).toBe(true);
  });
});
