import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { createTestPki } from '@loyalty-gateway/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProviderSettings } from './provider-settings.js';

const pki = createTestPki('Provider CA');
afterAll(() => pki.dispose());

describe('parseProviderSettings', () => {
  it("uses the adapter's default scheme and reads its secrets (a list during rotation)", () => {
    const parsed = parseProviderSettings(shopify, { appSecret: ['new', 'old'] });
    expect(parsed).toMatchObject({
      ok: true,
      config: { scheme: shopify.defaultAuth, secrets: ['new', 'old'], notificationUrl: undefined },
    });
    const sq = parseProviderSettings(square, { signatureKey: 'k', notificationUrl: 'https://gw.example.com/webhooks/square' });
    expect(sq).toMatchObject({ ok: true, config: { secrets: ['k'], notificationUrl: 'https://gw.example.com/webhooks/square' } });
  });

  it('takes an operator override from `auth`, keeping its own secret key away from a strict adapter schema', () => {
    const parsed = parseProviderSettings(clover, {
      authCode: 'unused',
      relay: 'relay-secret',
      auth: { kind: 'hmac', header: 'X-Relay-Signature', encoding: 'hex', secret: { from: 'settings', key: 'relay' } },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
    expect(parsed.config.scheme).toMatchObject({ kind: 'hmac', header: 'x-relay-signature', encoding: 'hex' });
    expect(parsed.config.secrets).toEqual(['relay-secret']);
    expect(parsed.config.settings).toEqual({ authCode: 'unused', apiBaseUrl: 'https://api.clover.com' });
    const mtls = parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'mtls', mode: 'direct', caPem: pki.caPem } });
    expect(mtls).toMatchObject({ ok: true, config: { secrets: 'none' } });
  });

  it("reads `catalogSchedule` itself (validated as a cron expression, trimmed); the adapter's strict schema never sees it", () => {
    const sq = parseProviderSettings(
      square,
      { signatureKey: 'k', notificationUrl: 'https://gw.example.com/webhooks/square', catalogSchedule: ' 0 4 * * 1 ' },
      { unknownKeys: 'refuse' },
    );
    expect(sq).toMatchObject({ ok: true, config: { catalogSchedule: '0 4 * * 1' } });
    expect(sq.ok && sq.config.settings).not.toHaveProperty('catalogSchedule');
    expect(parseProviderSettings(clover, { authCode: 'x' })).toMatchObject({ ok: true, config: { catalogSchedule: undefined } });
    expect(parseProviderSettings(clover, { authCode: 'x', catalogSchedule: 'at 3am' })).toMatchObject({
      ok: false,
      fields: [{ path: 'catalogSchedule' }],
    });
  });

  it("reports where settings are wrong: the override, or the adapter's own keys", () => {
    expect(parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'carrier-pigeon' } })).toMatchObject({
      ok: false,
      fields: [{ path: 'auth.kind' }],
    });
    expect(parseProviderSettings(clover, { authCode: 'x', colour: 'red' }, { unknownKeys: 'refuse' })).toEqual({
      ok: false,
      fields: [{ path: 'colour', message: 'unknown field' }],
    });
    expect(parseProviderSettings(square, { signatureKey: 'k' })).toMatchObject({ ok: false, fields: [{ path: 'notificationUrl' }] });
  });

  it('stored settings with a key this build does not know still work: the key is ignored and named (not a 500 after an upgrade)', () => {
    const stored = {
      signatureKey: 'k',
      notificationUrl: 'https://gw.example.com/webhooks/square',
      apiBaseURL: 'https://connect.squareupsandbox.com',
      legacy: 1,
    };
    const parsed = parseProviderSettings(square, stored);
    expect(parsed).toMatchObject({
      ok: true,
      ignoredKeys: ['apiBaseURL', 'legacy'],
      config: { secrets: ['k'], settings: { apiBaseUrl: 'https://connect.squareup.com' } },
    });
    if (parsed.ok)
      expect(Object.keys(parsed.config.settings).sort()).toEqual(['apiBaseUrl', 'notificationUrl', 'signatureKey', 'squareVersion']);
    // What the operator writes is still refused by name; known keys are checked either way.
    expect(parseProviderSettings(square, stored, { unknownKeys: 'refuse' })).toEqual({
      ok: false,
      fields: [
        { path: 'apiBaseURL', message: 'unknown field' },
        { path: 'legacy', message: 'unknown field' },
      ],
    });
    expect(parseProviderSettings(square, { ...stored, notificationUrl: 'not a url' })).toMatchObject({
      ok: false,
      fields: [{ path: 'notificationUrl' }],
    });
    expect(parseProviderSettings(square, { signatureKey: 'k', notificationUrl: 'https://gw.example.com/webhooks/square' })).toMatchObject({
      ok: true,
      ignoredKeys: [],
    });
  });

  describe('overrides that can never verify are refused, naming the field', () => {
    it('a secret key that is not in the settings (or is empty)', () => {
      const relay = { kind: 'hmac', header: 'X-Relay-Signature', secret: { from: 'settings', key: 'relayKeyy' } };
      expect(parseProviderSettings(clover, { authCode: 'x', relayKey: 'k', auth: relay }, { unknownKeys: 'refuse' })).toMatchObject({
        ok: false,
        fields: [
          { path: 'relayKey', message: 'unknown field' },
          { path: 'relayKeyy', message: expect.stringContaining('is required by the auth scheme') },
        ],
      });
      expect(parseProviderSettings(clover, { authCode: 'x', relayKeyy: '', auth: relay })).toMatchObject({
        ok: false,
        fields: [{ path: 'relayKeyy' }],
      });
      expect(parseProviderSettings(clover, { authCode: 'x', relayKeyy: [], auth: relay })).toMatchObject({
        ok: false,
        fields: [{ path: 'relayKeyy' }],
      });
    });

    it('timestamp+body without timestampHeader', () => {
      const auth = { kind: 'hmac', header: 'x-sig', signed: 'timestamp+body', secret: { from: 'settings', key: 'authCode' } };
      expect(parseProviderSettings(clover, { authCode: 'x', auth })).toEqual({
        ok: false,
        fields: [
          {
            path: 'auth.timestampHeader',
            message: 'is required when signed is "timestamp+body" (the header carrying the signed timestamp)',
          },
        ],
      });
      expect(parseProviderSettings(clover, { authCode: 'x', auth: { ...auth, timestampHeader: 'X-Ts' } })).toMatchObject({ ok: true });
    });

    it('an mTLS CA that is not a readable PEM certificate, or a pin that is not a SHA-256 fingerprint', () => {
      for (const caPem of ['garbage', '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----']) {
        expect(parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'mtls', mode: 'proxy', caPem } })).toMatchObject({
          ok: false,
          fields: [{ path: 'auth.caPem' }],
        });
      }
      expect(
        parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'mtls', mode: 'proxy', caPem: pki.caPem, fingerprints: ['AB:CD'] } }),
      ).toMatchObject({ ok: false, fields: [{ path: 'auth.fingerprints[0]' }] });
    });

    it('mTLS direct where this gateway has no HTTPS listener', () => {
      const settings = { authCode: 'x', auth: { kind: 'mtls', mode: 'direct', caPem: pki.caPem } };
      expect(parseProviderSettings(clover, settings, { tlsListener: false })).toMatchObject({
        ok: false,
        fields: [{ path: 'auth.mode', message: expect.stringContaining('GATEWAY_TLS_PORT') }],
      });
      expect(parseProviderSettings(clover, settings, { tlsListener: true })).toMatchObject({ ok: true });
      expect(
        parseProviderSettings(clover, { ...settings, auth: { ...settings.auth, mode: 'proxy' } }, { tlsListener: false }),
      ).toMatchObject({ ok: true });
    });
  });
});
