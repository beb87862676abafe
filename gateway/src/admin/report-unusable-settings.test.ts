import { createTestPki } from '@loyalty-gateway/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { reportUnusableSettings } from './report-unusable-settings.js';
import { openOperatorApp } from '../testing/open-operator-app.js';
import { adapters } from '../adapters.js';

const pki = createTestPki('Provider CA');
afterAll(() => pki.dispose());

describe('reportUnusableSettings (start-up)', () => {
  it('a featured vendor seeded with mTLS direct on a gateway without an HTTPS listener is reported at error, naming the field', async () => {
    const t = await openOperatorApp();
    try {
      await t.store.setVendorSettings('clover', { authCode: 'c', auth: { kind: 'mtls', mode: 'direct', caPem: pki.caPem } });
      await t.store.setVendorTier('clover', 'featured');
      const lines: Array<{ object: Record<string, unknown>; message: string }> = [];
      const log = { error: (object: Record<string, unknown>, message: string) => void lines.push({ object, message }) };
      expect(await reportUnusableSettings(t.store, adapters, { tlsListener: false }, log as never)).toEqual(['clover']);
      expect(lines).toEqual([
        {
          object: { vendor: 'clover', fields: [expect.objectContaining({ path: 'auth.mode' })] },
          message: expect.stringContaining('cannot work on this gateway'),
        },
      ]);
      expect(await reportUnusableSettings(t.store, adapters, { tlsListener: true }, log as never)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('stored settings with keys this build does not know are usable: logged at warn naming the keys, not reported unusable', async () => {
    const t = await openOperatorApp();
    try {
      await t.store.setVendorSettings('clover', { authCode: 'c', pollIntervalSeconds: 30 });
      await t.store.setVendorTier('clover', 'featured');
      const lines: Array<{ level: string; object: Record<string, unknown>; message: string }> = [];
      const log = {
        error: (object: Record<string, unknown>, message: string) => void lines.push({ level: 'error', object, message }),
        warn: (object: Record<string, unknown>, message: string) => void lines.push({ level: 'warn', object, message }),
      };
      expect(await reportUnusableSettings(t.store, adapters, { tlsListener: false }, log as never)).toEqual([]);
      expect(lines).toEqual([
        { level: 'warn', object: { vendor: 'clover', ignoredKeys: ['pollIntervalSeconds'] }, message: expect.stringContaining('ignored') },
      ]);
    } finally {
      await t.close();
    }
  });
});
