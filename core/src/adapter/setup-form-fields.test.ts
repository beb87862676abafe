import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Secret } from './secret.js';
import { setupFormFields } from './setup-form-fields.js';

describe('setupFormFields', () => {
  it('says how each field is asked for: a checkbox for true/false, text otherwise; required or not; the default that applies', () => {
    const Settings = z.strictObject({
      appSecret: Secret.meta({ title: 'App secret', description: 'Signs every webhook.', secret: true }),
      apiBaseUrl: z
        .url()
        .default('https://api.example.com')
        .transform((url) => url.replace(/\/+$/, ''))
        .meta({ title: 'API base URL', description: 'For tests.' }),
      apiVersion: z.string().optional().meta({ title: 'API version', description: 'Optional.' }),
      managed: z.boolean().default(false).meta({ title: 'Managed', description: 'true or false.' }),
    });
    expect(setupFormFields(Settings)).toEqual([
      {
        key: 'appSecret',
        label: 'App secret',
        help: 'Signs every webhook.',
        secret: true,
        input: 'text',
        required: true,
        defaultValue: undefined,
      },
      {
        key: 'apiBaseUrl',
        label: 'API base URL',
        help: 'For tests.',
        secret: false,
        input: 'text',
        required: false,
        defaultValue: 'https://api.example.com',
      },
      {
        key: 'apiVersion',
        label: 'API version',
        help: 'Optional.',
        secret: false,
        input: 'text',
        required: false,
        defaultValue: undefined,
      },
      { key: 'managed', label: 'Managed', help: 'true or false.', secret: false, input: 'checkbox', required: false, defaultValue: false },
    ]);
  });

  it('has no fields for an empty schema, and names a field that does not say what it is', () => {
    expect(setupFormFields(z.strictObject({}))).toEqual([]);
    expect(() => setupFormFields(z.object({ token: z.string() }), 'settings')).toThrow('settings.token declares no .meta');
  });
});
