import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { verifyV1 } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module (JSDoc types), shipped for vendors to copy
import { signV1, signedRequestHeaders } from '../vendor-signing/loyalty-signing.mjs';

const SECRET = 'whsec_vendor_signing_test_secret_0123456789';
const body = JSON.stringify({ eventId: 'T-1:paid', eventType: 'sale.completed', transaction: { id: 'T-1', total: 12.5 }, note: 'café ☕' });

describe('the vendor signing helpers verify against the gateway\'s own verifier', () => {
  it('Node: the zero-dependency module (tools/vendor-signing/loyalty-signing.mjs)', () => {
    const headers = signedRequestHeaders({ secret: SECRET, vendor: 'acme-pos', storeId: 'store-001', body, nowSeconds: 1_764_000_000, requestId: 'trace-1' });
    expect(headers).toMatchObject({ 'X-Service-Vendor': 'acme-pos', 'X-Service-Store': 'store-001', 'X-Service-Timestamp': '1764000000', 'X-Request-ID': 'trace-1' });
    expect(verifyV1([SECRET], '1764000000', body, headers['X-Service-Signature'])).toBe(true);
    expect(verifyV1([SECRET], '1764000001', body, headers['X-Service-Signature'])).toBe(false);
    expect(signV1(SECRET, 1_764_000_000, Buffer.from(body))).toBe(headers['X-Service-Signature']);
  });

  it('Python: the snippet in docs/generic-integration.md, run as printed', () => {
    const guide = readFileSync(new URL('../../docs/generic-integration.md', import.meta.url), 'utf8');
    const snippet = /```python\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(snippet).toContain('hmac.new');
    const envelope = JSON.parse(body) as unknown;
    const program = `secret = ${JSON.stringify(SECRET)}\nenvelope = ${JSON.stringify(envelope)}\n${snippet}\nimport sys\nsys.stdout.write(timestamp + "\\n" + signature + "\\n" + body.decode())\n`;
    const [timestamp, signature, sent] = execFileSync('python3', ['-c', program], { encoding: 'utf8' }).split('\n', 3) as [string, string, string];
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyV1([SECRET], timestamp, Buffer.from(sent, 'utf8'), signature)).toBe(true);
    expect(JSON.parse(sent)).toEqual(envelope);
  });
});
