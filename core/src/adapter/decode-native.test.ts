import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeNative, tryDecodeNative } from './decode-native.js';
import { defineAdapter } from './define-adapter.js';

const adapterWith = (body: 'json' | 'form' | 'json-or-form') =>
  defineAdapter({
    slug: `decode-${body}`,
    display: { name: 'Decode', description: 'd', category: 'ecommerce', logoSvg: '<svg/>' },
    setup: { storeIdLabel: 'store', steps: [] },
    settings: z.object({}),
    credentials: z.object({}),
    auth: { kind: 'hmac', header: 'x-sig', secret: { from: 'connection' } },
    body,
    native: z.looseObject({}),
    units: () => [],
    map: () => ({ envelopes: [] }),
  });

describe("decodeNative by the adapter's declared body format", () => {
  it('json-or-form: JSON when the bytes are JSON, else form-encoded (WooCommerce posts JSON events and a form-encoded ping)', () => {
    const adapter = adapterWith('json-or-form');
    expect(decodeNative(adapter, Buffer.from('{"id":727,"status":"processing"}'))).toEqual({ id: 727, status: 'processing' });
    expect(decodeNative(adapter, Buffer.from('webhook_id=42'))).toEqual({ webhook_id: '42' });
    // Broken JSON is read as a form, which the native schema then judges (here: any object passes).
    expect(decodeNative(adapter, Buffer.from('{"id":'))).toEqual({ '{"id":': '' });
  });

  it('json stays strict: a form body is 400 invalid_native_payload, not silently read', () => {
    const decoding = tryDecodeNative(adapterWith('json'), Buffer.from('webhook_id=42'));
    expect(decoding.ok).toBe(false);
    expect(decoding.ok ? null : decoding.error).toMatchObject({
      code: 'invalid_native_payload',
      message: 'The Decode payload could not be read: the body is not JSON.',
    });
  });

  it('every format refuses an empty or non-UTF-8 body', () => {
    for (const format of ['json', 'form', 'json-or-form'] as const) {
      expect(() => decodeNative(adapterWith(format), Buffer.alloc(0))).toThrow(/the body is empty/);
      expect(() => decodeNative(adapterWith(format), Buffer.from([0xff, 0xfe]))).toThrow(/not UTF-8/);
    }
  });
});
