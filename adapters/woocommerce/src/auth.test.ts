import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';

const body = readFileSync(new URL('./fixtures/order-paid.json', import.meta.url));
const kit = adapterKit(adapter, { settings: { webhookSecret: ['new-secret', 'old-secret'], apiBaseUrl: 'http://127.0.0.1:1' }, credentials: { accessToken: 't' } });
/** The vendor's recipe, computed here independently of the kit: hex HMAC-SHA256 of the raw body. */
const signature = (secret: string, raw: Buffer | string) => createHmac('sha256', secret).update(raw).digest('hex');
const HEADER = 'x-woocommerce-signature';

describe('woocommerce auth', () => {
  it('accepts the signature the vendor computes over the exact bytes, with either secret during rotation', () => {
    expect(kit.authenticate(kit.unsigned(body, { [HEADER]: signature('new-secret', body) }))).toEqual({ ok: true });
    expect(kit.authenticate(kit.unsigned(body, { [HEADER]: signature('old-secret', body) }))).toEqual({ ok: true });
  });

  it('answers a bad, missing or re-serialised signature 401 at the door, before reading the body', async () => {
    expect(await kit.post(kit.unsigned(body, { [HEADER]: signature('attacker', body) }))).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned(body))).toMatchObject({ statusCode: 401 });
    const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')));
    expect(await kit.post(kit.unsigned(reserialised, { [HEADER]: signature('new-secret', body) }))).toMatchObject({ statusCode: 401 });
    expect(await kit.post(kit.unsigned('garbage{'))).toMatchObject({ statusCode: 401 });
  });

  it('keeps its secret in the provider settings', () => {
    expect(adapter.defaultAuth).toMatchObject({ kind: 'hmac', header: HEADER, encoding: 'hex', secret: { from: 'settings', key: 'webhookSecret' } });
  });
});
