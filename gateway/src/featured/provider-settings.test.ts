import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { describe, expect, it } from 'vitest';
import { parseProviderSettings } from './provider-settings.js';

describe('parseProviderSettings', () => {
  it('uses the adapter\'s default scheme and reads its secrets (a list during rotation)', () => {
    const parsed = parseProviderSettings(shopify, { appSecret: ['new', 'old'] });
    expect(parsed).toMatchObject({ ok: true, config: { scheme: shopify.defaultAuth, secrets: ['new', 'old'], notificationUrl: undefined } });
    const sq = parseProviderSettings(square, { signatureKey: 'k', notificationUrl: 'https://gw.example.com/webhooks/square' });
    expect(sq).toMatchObject({ ok: true, config: { secrets: ['k'], notificationUrl: 'https://gw.example.com/webhooks/square' } });
  });

  it('takes an operator override from `auth`, keeping its own secret key away from a strict adapter schema', () => {
    const parsed = parseProviderSettings(clover, {
      authCode: 'unused', relay: 'relay-secret', auth: { kind: 'hmac', header: 'X-Relay-Signature', encoding: 'hex', secret: { from: 'settings', key: 'relay' } },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
    expect(parsed.config.scheme).toMatchObject({ kind: 'hmac', header: 'x-relay-signature', encoding: 'hex' });
    expect(parsed.config.secrets).toEqual(['relay-secret']);
    expect(parsed.config.settings).toEqual({ authCode: 'unused', apiBaseUrl: 'https://api.clover.com' });
    const mtls = parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'mtls', mode: 'direct', caPem: '-----BEGIN CERTIFICATE-----' } });
    expect(mtls).toMatchObject({ ok: true, config: { secrets: 'none' } });
  });

  it('reports where settings are wrong: the override, or the adapter\'s own keys', () => {
    expect(parseProviderSettings(clover, { authCode: 'x', auth: { kind: 'carrier-pigeon' } })).toMatchObject({ ok: false, fields: [{ path: 'auth.kind' }] });
    expect(parseProviderSettings(clover, { authCode: 'x', colour: 'red' })).toEqual({ ok: false, fields: [{ path: 'colour', message: 'unknown field' }] });
    expect(parseProviderSettings(square, { signatureKey: 'k' })).toMatchObject({ ok: false, fields: [{ path: 'notificationUrl' }] });
  });
});
