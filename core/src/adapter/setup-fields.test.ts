import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAdapter } from './define-adapter.js';
import { Secret } from './secret.js';
import { setupFields } from './setup-fields.js';

describe('setupFields', () => {
  it("reads each field's .meta() in declaration order, through optional, default and transform", () => {
    const Settings = z.strictObject({
      appSecret: Secret.meta({ title: 'App secret', description: 'Signs every webhook.', secret: true }),
      apiBaseUrl: z
        .url()
        .default('https://api.example.com')
        .transform((url) => url.replace(/\/+$/, ''))
        .meta({ title: 'API base URL', description: 'For tests.' }),
      token: z.string().optional().meta({ title: 'Token', description: 'Optional.', secret: true }),
      region: z.string().meta({ title: 'Region', description: 'eu or us.' }).optional(),
    });
    expect(setupFields(Settings)).toEqual([
      { key: 'appSecret', label: 'App secret', help: 'Signs every webhook.', secret: true },
      { key: 'apiBaseUrl', label: 'API base URL', help: 'For tests.', secret: false },
      { key: 'token', label: 'Token', help: 'Optional.', secret: true },
      { key: 'region', label: 'Region', help: 'eu or us.', secret: false },
    ]);
  });

  it('has no fields for an empty or shapeless schema', () => {
    expect(setupFields(z.strictObject({}))).toEqual([]);
    expect(setupFields(z.looseObject({}))).toEqual([]);
  });

  it('names a field that does not say what it is', () => {
    expect(() => setupFields(z.object({ accessToken: z.string() }), 'credentials')).toThrow(
      'credentials.accessToken declares no .meta({ title, description }): the setup page could not say what it is',
    );
  });

  it("gives a defined adapter its setup page's credential rows, and refuses one whose credentials say nothing", () => {
    const spec = {
      slug: 'acme-pos',
      display: { name: 'Acme', description: 'd', category: 'pos' as const, logoSvg: '<svg/>' },
      setup: { storeIdLabel: 'store', steps: [] },
      settings: z.strictObject({}),
      credentials: z.strictObject({
        accessToken: z.string().min(1).meta({ title: 'Access token', description: 'Settings → API.', secret: true }),
      }),
      auth: { kind: 'hmac' as const, header: 'x-sig', secret: { from: 'connection' as const } },
      native: z.object({}),
      units: () => [],
      map: () => ({ envelopes: [] }),
    };
    expect(defineAdapter(spec).setup).toEqual({
      storeIdLabel: 'store',
      steps: [],
      credentials: [{ key: 'accessToken', label: 'Access token', help: 'Settings → API.', secret: true }],
    });
    expect(() => defineAdapter({ ...spec, credentials: z.strictObject({ accessToken: z.string() }) })).toThrow(
      'adapter "acme-pos": credentials.accessToken declares no .meta({ title, description })',
    );
  });
});
