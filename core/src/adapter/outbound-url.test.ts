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
    ['https://0.0.0.0/', 'points at a unspecified address (0.0.0.0); allow it explicitly with GATEWAY_OUTBOUND_ALLOW'],
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
        'vendor API URL refused: it points at a loopback address (127.0.0.1), refused in production',
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
});
