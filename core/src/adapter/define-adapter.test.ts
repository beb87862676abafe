import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAdapter, type AdapterSpec } from './define-adapter.js';
import { Secret } from './secret.js';

const spec = (settings: z.ZodType, key = 'appSecret'): AdapterSpec<z.ZodType, z.ZodType, z.ZodType, unknown> => ({
  slug: 'acme-pos',
  display: { name: 'Acme', description: 'd', category: 'pos', logoSvg: '<svg/>' },
  setup: { storeIdLabel: 'store', steps: [] },
  settings,
  credentials: z.object({}),
  auth: { kind: 'hmac', header: 'x-sig', secret: { from: 'settings', key } },
  native: z.object({}),
  units: () => [],
  map: () => ({ envelopes: [] }),
});

describe('defineAdapter', () => {
  it("accepts a settings schema that holds its scheme's secret (a string or a list), through transforms", () => {
    expect(defineAdapter(spec(z.strictObject({ appSecret: Secret }))).defaultAuth).toMatchObject({ kind: 'hmac', header: 'x-sig' });
    expect(() => defineAdapter(spec(z.object({ appSecret: z.string() }).transform((s) => s)))).not.toThrow();
  });

  it('refuses a default scheme whose secret key is not in the settings schema, optional, or not a string', () => {
    expect(() => defineAdapter(spec(z.object({ appSecret: z.string() }), 'appSecrett'))).toThrow(
      'adapter "acme-pos": its auth scheme reads settings.appSecrett, but its settings schema declares no "appSecrett" key',
    );
    expect(() => defineAdapter(spec(z.object({ appSecret: z.string().optional() })))).toThrow(/settings.appSecret must be required/);
    expect(() => defineAdapter(spec(z.object({ appSecret: z.number() })))).toThrow(/must accept a string or a list of strings/);
  });

  it('refuses a scheme that can never verify (timestamp+body without its header)', () => {
    const bad = {
      ...spec(z.object({ appSecret: z.string() })),
      auth: {
        kind: 'hmac' as const,
        header: 'x-sig',
        signed: 'timestamp+body' as const,
        secret: { from: 'settings' as const, key: 'appSecret' },
      },
    };
    expect(() => defineAdapter(bad)).toThrow(/timestampHeader is required when signed is "timestamp\+body"/);
  });
});
