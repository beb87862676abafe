import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

describe("admin API: the catalogSchedule provider setting overrides the adapter's schedule", () => {
  let t: OperatorApp;
  let changes: string[];
  beforeEach(async () => {
    changes = [];
    t = await openOperatorApp({ onVendorChanged: async () => void changes.push('changed') });
  });
  afterEach(() => t.close());

  const clover = { authCode: 'clover-auth-code-secret', apiBaseUrl: 'https://api.clover.com' };
  const listed = async (slug: string) =>
    ((await t.admin('GET', '/admin/vendors')).json().vendors as Array<{ slug: string }>).find((v) => v.slug === slug);

  it('is shown in GET /admin/vendors (with its source) once set, and the default again once removed', async () => {
    expect(await listed('clover')).toMatchObject({ catalogSchedule: '20 3 * * *', catalogScheduleSource: 'adapter' });
    const set = await t.admin('PUT', '/admin/vendors/clover/settings', { ...clover, catalogSchedule: '0 4 * * 1' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ vendor: { slug: 'clover', catalogSchedule: '0 4 * * 1', catalogScheduleSource: 'settings' } });
    expect(await listed('clover')).toMatchObject({ catalogSchedule: '0 4 * * 1', catalogScheduleSource: 'settings' });
    // Promotion keeps it: the settings are untouched.
    expect((await t.admin('POST', '/admin/vendors/clover/promote')).json()).toMatchObject({
      vendor: { tier: 'featured', catalogSchedule: '0 4 * * 1' },
    });
    await t.admin('PUT', '/admin/vendors/clover/settings', clover);
    expect(await listed('clover')).toMatchObject({ catalogSchedule: '20 3 * * *', catalogScheduleSource: 'adapter' });
  });

  it('tells this process about every vendor write (settings, promotion, demotion) before answering', async () => {
    await t.admin('PUT', '/admin/vendors/clover/settings', { ...clover, catalogSchedule: '0 4 * * *' });
    await t.admin('POST', '/admin/vendors/clover/promote');
    await t.admin('POST', '/admin/vendors/clover/demote');
    expect(changes).toEqual(['changed', 'changed', 'changed']);
    await t.admin('PUT', '/admin/vendors/clover/settings', { ...clover, catalogSchedule: 'nightly' });
    expect(changes).toHaveLength(3); // refused: nothing written, nothing to follow
  });

  it('refuses what node-cron would not run, naming catalogSchedule; the stored settings stay', async () => {
    for (const catalogSchedule of ['nightly', '61 3 * * *', '', 3, '* * * * * * *']) {
      const refused = await t.admin('PUT', '/admin/vendors/clover/settings', { ...clover, catalogSchedule });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'invalid_settings',
        fields: [{ path: 'catalogSchedule', message: expect.stringContaining('cron expression') }],
      });
    }
    expect((await t.store.getVendor('clover'))?.settings).not.toHaveProperty('catalogSchedule');
  });

  it("is the gateway's key, not the adapter's: a strict adapter schema (Square) accepts it; an adapter without a catalog pull refuses it", async () => {
    const square = { signatureKey: 'sq-key', notificationUrl: 'https://gw.example.com/webhooks/square', catalogSchedule: '45 2 * * *' };
    const ok = await t.admin('PUT', '/admin/vendors/square/settings', square);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ vendor: { catalogSchedule: '45 2 * * *', catalogScheduleSource: 'settings' } });

    const erp = await openOperatorApp({ adapters: [...adapters, erpTestAdapter()] });
    try {
      const refused = await erp.admin('PUT', '/admin/vendors/erp-test/settings', { catalogSchedule: '0 4 * * *' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        fields: [{ path: 'catalogSchedule', message: "Test ERP's adapter has no catalog pull to schedule" }],
      });
      expect((await erp.admin('PUT', '/admin/vendors/erp-test/settings', {})).json()).toMatchObject({
        vendor: { catalogSchedule: null, catalogScheduleSource: null },
      });
    } finally {
      await erp.close();
    }
  });
});
