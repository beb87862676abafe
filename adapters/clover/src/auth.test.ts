import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { cloverHandshake, cloverUnits } from './auth.js';
import { CloverSettings } from './config.js';
import { adapter } from './index.js';
import { CloverWebhookBody } from './native.js';
import { fixtures } from './testing/index.js';

const settings = { authCode: ['old-auth-code', 'new-auth-code'] };

describe('Clover auth: static X-Clover-Auth, constant time, rotation list', () => {
  it('accepts every configured code during rotation and refuses others', () => {
    const kit = adapterKit(adapter, { settings, credentials: { accessToken: 't' } });
    const body = fixtures.text('webhook-notification.json');
    expect(kit.authenticate(kit.signed(body))).toEqual({ ok: true });
    expect(kit.authenticate(kit.unsigned(body, { 'X-Clover-Auth': 'new-auth-code' }))).toEqual({ ok: true });
    expect(kit.authenticate(kit.unsigned(body, { 'X-Clover-Auth': 'new-auth-code ' })).ok).toBe(false);
    expect(kit.authenticate(kit.unsigned(body, { 'X-Clover-Auth': 'older-auth-code' }))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('the door answers a wrong or missing X-Clover-Auth 401; the unsigned verificationCode 200 (declared unsigned)', async () => {
    const kit = adapterKit(adapter, { settings, credentials: { accessToken: 't' } });
    const body = fixtures.text('webhook-notification.json');
    expect(await kit.post(kit.unsigned(body, { 'X-Clover-Auth': 'older-auth-code' }))).toMatchObject({
      statusCode: 401,
      code: 'bad_signature',
    });
    expect(await kit.post(kit.unsigned(body))).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned(fixtures.text('webhook-verification.json')))).toMatchObject({
      statusCode: 200,
      body: { status: 'handshake' },
    });
  });

  it('declares the static-header scheme with the secret in provider settings', () => {
    expect(adapter.defaultAuth).toEqual({
      kind: 'static-header',
      header: 'x-clover-auth',
      prefix: '',
      secret: { from: 'settings', key: 'authCode' },
    });
  });
});

describe('Clover verification handshake', () => {
  it('answers the one-time verificationCode with a note and the code, and no envelopes', async () => {
    const kit = adapterKit(adapter, { settings, credentials: { accessToken: 't' } });
    const request = kit.unsigned(fixtures.text('webhook-verification.json'));
    // Clover sends it before any auth code exists: it does not authenticate, so the gateway
    // must detect the handshake before running auth for this adapter.
    expect(kit.authenticate(request).ok).toBe(false);
    const out = await kit.envelopes(request);
    expect(out.handshake).toEqual({
      note: 'Clover webhook verification code: paste it into the Clover Developer Dashboard (App Settings > Webhooks) and click Verify',
      value: '5220ecf5-7dea-4396-b0ba-a1659c182887',
    });
    expect(out.envelopes).toEqual([]);
  });

  it('is not a handshake when the body is a notification', () => {
    expect(cloverHandshake(CloverWebhookBody.parse(fixtures.json('webhook-notification.json')))).toBeNull();
    expect(cloverHandshake(CloverWebhookBody.parse({ verificationCode: '  ' }))).toBeNull();
  });
});

describe('Clover store identification', () => {
  it('splits a batch into one unit per (merchant, object), the merchant id as store', () => {
    const units = cloverUnits(CloverWebhookBody.parse(fixtures.json('webhook-notification.json')));
    expect(units).toHaveLength(7);
    expect(units[0]).toEqual({
      storeId: 'XYZVJT2ZRRRSC',
      unit: { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:GHIVJT2ABCRSC', type: 'CREATE', ts: 1537970958000 },
    });
    expect(units[6]).toEqual({
      storeId: 'MNOVJT2ZRRRSC',
      unit: { merchantId: 'MNOVJT2ZRRRSC', objectId: 'O:GONVJT2ABCRSC', type: 'UPDATE', ts: 1537971004000 },
    });
    expect(cloverUnits(CloverWebhookBody.parse({ appId: 'A', merchants: {} }))).toEqual([]);
  });
});

describe('Clover batches with a malformed object', () => {
  it('a bad object is reported unreadable and the rest of the batch is still read (a digit-string ts is read as a number)', () => {
    const body = CloverWebhookBody.parse({
      appId: 'A',
      merchants: {
        XYZVJT2ZRRRSC: [
          { objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1537970958000 },
          { objectId: 1, type: 'UPDATE', ts: 1 },
        ],
        MNOVJT2ZRRRSC: [
          { objectId: 'O:OPNVJT2ABCRSC', type: 'UPDATE', ts: '1537971000000' },
          { objectId: 'O:X', type: 'UPDATE', ts: null },
        ],
        BADVJT2ZRRRSC: 'not a list',
      },
    });
    expect(cloverUnits(body)).toEqual([
      { storeId: 'XYZVJT2ZRRRSC', unit: { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1537970958000 } },
      { storeId: 'XYZVJT2ZRRRSC', unreadable: expect.stringMatching(/^update 1: objectId /) },
      { storeId: 'MNOVJT2ZRRRSC', unit: { merchantId: 'MNOVJT2ZRRRSC', objectId: 'O:OPNVJT2ABCRSC', type: 'UPDATE', ts: 1537971000000 } },
      { storeId: 'MNOVJT2ZRRRSC', unreadable: expect.stringMatching(/^update 1: ts /) },
      { storeId: 'BADVJT2ZRRRSC', unreadable: 'its updates are not a list' },
    ]);
  });

  it('the whole POST is read (not refused) when one object is malformed; only an all-unreadable batch is 400', async () => {
    const kit = adapterKit(adapter, { settings, credentials: { accessToken: 't' } });
    const onlyBad = JSON.stringify({ appId: 'A', merchants: { XYZVJT2ZRRRSC: [{ objectId: 1 }] } });
    expect(await kit.post(kit.signed(onlyBad))).toMatchObject({
      statusCode: 400,
      code: 'invalid_native_payload',
      message: expect.stringContaining('XYZVJT2ZRRRSC: update 0'),
    });
    const mixed = JSON.stringify({
      appId: 'A',
      merchants: { XYZVJT2ZRRRSC: [{ objectId: 1 }, { objectId: 'P:PAY', type: 'CREATE', ts: 5 }] },
    });
    expect(await kit.post(kit.signed(mixed))).toMatchObject({
      statusCode: 200,
      body: {
        status: 'accepted',
        results: [],
        skipped: [{ storeId: 'XYZVJT2ZRRRSC', reason: 'unreadable', detail: expect.stringContaining('update 0') }],
      },
    });
  });
});

describe('Clover settings and credentials', () => {
  it('defaults apiBaseUrl to the real API and strips a trailing slash', () => {
    expect(CloverSettings.parse({ authCode: 'x' })).toEqual({ authCode: 'x', apiBaseUrl: 'https://api.clover.com' });
    expect(CloverSettings.parse({ authCode: 'x', apiBaseUrl: 'https://api.eu.clover.com/' }).apiBaseUrl).toBe('https://api.eu.clover.com');
  });

  it('refuses an empty auth code, unknown keys and a connection without a token', () => {
    expect(CloverSettings.safeParse({ authCode: '' }).success).toBe(false);
    expect(CloverSettings.safeParse({ authCode: [] }).success).toBe(false);
    expect(CloverSettings.safeParse({ authCode: 'x', appSecret: 'y' }).success).toBe(false);
    expect(adapter.credentials.safeParse({}).success).toBe(false);
  });
});
