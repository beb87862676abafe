import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { locationOf, squareUnits } from './auth.js';
import { adapter } from './index.js';
import { fixtures } from './testing/index.js';
import { SquareEvent } from './native.js';

/** Square's own published vector (square-nodejs-sdk tests/integration/webhooks.test.ts). */
const SDK_KEY = 'Ibxx_5AKakO-3qeNVR61Dw';
const SDK_URL = 'https://webhook.site/679a4f3a-dcfa-49ee-bac5-9d0edad886b9';
const SDK_SIGNATURE = 'GF4YkrJgGBDZ9NIYbNXBnMzqb2HoL4RW/S6vkZ9/2N4=';
const HEADER = 'x-square-hmacsha256-signature';
const body = fixtures.bytes('webhooks-test-notification.json');

const kitFor = (signatureKey: string | string[], url = SDK_URL) =>
  adapterKit(adapter, { settings: { signatureKey, notificationUrl: url }, credentials: { accessToken: 'EAAA-test' }, url });

describe('Square signature (HMAC-SHA256, base64, notification URL + raw body)', () => {
  it("accepts Square's own signed test notification", () => {
    expect(kitFor(SDK_KEY).authenticate(kitFor(SDK_KEY).unsigned(body, { [HEADER]: SDK_SIGNATURE }))).toEqual({ ok: true });
  });

  it('accepts it during key rotation when the old key is still listed', () => {
    const kit = kitFor(['a-newer-key-not-yet-used', SDK_KEY]);
    expect(kit.authenticate(kit.unsigned(body, { [HEADER]: SDK_SIGNATURE }))).toEqual({ ok: true });
  });

  it('refuses a signature made for another notification URL (a proxy-rewritten URL never verifies)', () => {
    const kit = kitFor(SDK_KEY, 'https://webhook.site/79a4f3a-dcfa-49ee-bac5-9d0edad886b9');
    expect(kit.authenticate(kit.unsigned(body, { [HEADER]: SDK_SIGNATURE }))).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a wrong key, a tampered body and a re-serialised body', () => {
    const wrongKey = kitFor('MCmhFRxGX82xMwg5FsaoQA');
    expect(wrongKey.authenticate(wrongKey.unsigned(body, { [HEADER]: SDK_SIGNATURE }))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    const kit = kitFor(SDK_KEY);
    const tampered = Buffer.from(body.toString().replace('2022-07-13', '2022-06-13'));
    expect(kit.authenticate(kit.unsigned(tampered, { [HEADER]: SDK_SIGNATURE }))).toMatchObject({ ok: false, reason: 'bad_signature' });
    const pretty = JSON.stringify(JSON.parse(body.toString()), null, 2);
    expect(kit.authenticate(kit.unsigned(pretty, { [HEADER]: SDK_SIGNATURE }))).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('the door answers a bad signature 401, and a forged test notification too (it is signed)', async () => {
    const kit = kitFor(SDK_KEY);
    expect(await kit.post(kitFor('MCmhFRxGX82xMwg5FsaoQA').signed(body))).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned(body))).toMatchObject({ statusCode: 401 });
    expect(await kit.post(kit.signed(body))).toMatchObject({
      statusCode: 200,
      handshake: { value: 'ac3ac95b-f97d-458c-a6e6-18981597e05f' },
    });
  });

  it('refuses a request carrying only the legacy SHA-1 x-square-signature', () => {
    const kit = kitFor(SDK_KEY);
    expect(kit.authenticate(kit.unsigned(body, { 'x-square-signature': '1z2n3DEJJiUPKcPzQo1ftvbxGdw=' }))).toMatchObject({
      ok: false,
      reason: 'missing_credentials',
    });
  });

  it("signs a fixture the way Square does (the kit's signer agrees with Square's vector)", () => {
    expect(kitFor(SDK_KEY).signed(body).headers[HEADER]).toBe(SDK_SIGNATURE);
  });
});

describe('Square settings', () => {
  it('defaults apiBaseUrl to the real API and Square-Version to a published version', () => {
    expect(adapter.settings.parse({ signatureKey: 'k', notificationUrl: SDK_URL })).toEqual({
      signatureKey: 'k',
      notificationUrl: SDK_URL,
      apiBaseUrl: 'https://connect.squareup.com',
      squareVersion: '2025-01-23',
    });
  });

  it('refuses a missing key, an empty key list and a notification URL that is not a URL', () => {
    expect(adapter.settings.safeParse({ notificationUrl: SDK_URL }).success).toBe(false);
    expect(adapter.settings.safeParse({ signatureKey: [], notificationUrl: SDK_URL }).success).toBe(false);
    expect(adapter.settings.safeParse({ signatureKey: 'k', notificationUrl: '/webhooks/square' }).success).toBe(false);
  });

  it('refuses an unknown key (a typo such as apiBaseURL is not silently ignored)', () => {
    const typo = adapter.settings.safeParse({
      signatureKey: 'k',
      notificationUrl: SDK_URL,
      apiBaseURL: 'https://connect.squareupsandbox.com',
    });
    expect(typo.success).toBe(false);
    expect(typo.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['apiBaseURL'] })]);
  });

  it('requires an access token per connection', () => {
    expect(adapter.credentials.safeParse({}).success).toBe(false);
    expect(adapter.credentials.parse({ accessToken: 'EAAA-test' })).toEqual({ accessToken: 'EAAA-test' });
  });
});

describe('store identification (the Square location id)', () => {
  it('reads the payment and the refund location', () => {
    const payment = SquareEvent.parse(fixtures.json('payment-updated-completed.json'));
    const refund = SquareEvent.parse(fixtures.json('refund-created-pending.json'));
    expect(squareUnits(payment)).toEqual([{ storeId: 'S8GWD5R9QB376', unit: payment }]);
    expect(locationOf(refund)).toBe('NAQ1FHV6ZJ8YV');
  });

  it('gives no unit for an event that names no location', () => {
    const event = SquareEvent.parse({
      merchant_id: 'M1',
      type: 'customer.created',
      event_id: 'e-1',
      data: { type: 'customer', id: 'C1', object: { customer: { id: 'C1' } } },
    });
    expect(squareUnits(event)).toEqual([]);
  });

  it('answers the test notification as a handshake: 200, nothing mapped, shown to the operator', async () => {
    const kit = kitFor(SDK_KEY);
    expect(await kit.envelopes(kit.signed(body))).toEqual({
      handshake: { note: 'Square test notification received for merchant MLEFBHHSJGVHD', value: 'ac3ac95b-f97d-458c-a6e6-18981597e05f' },
      stores: [],
      envelopes: [],
      notes: [],
    });
  });
});
