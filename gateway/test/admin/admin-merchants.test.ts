import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

/**
 * Onboarding without a seed file: merchants and outlets are listed through the engine port and,
 * with the embedded reference engine, created through /admin; then a connection can be made to
 * them (the connection route checks the merchant and outlet exist).
 */
describe.each(testDialects())('admin API: merchants and outlets ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
  });
  afterEach(() => t.close());

  it('merchants are onboarded through /admin, no seed file needed: list, create, add an outlet, connect', async () => {
    const listed = await t.admin('GET', '/admin/merchants');
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { merchants: Array<{ id: string }> }).merchants.map((m) => m.id)).toContain('m-bean');

    const created = await t.admin('POST', '/admin/merchants', {
      id: 'm-new',
      name: 'New Café',
      currency: 'EUR',
      defaultCountryCode: '33',
      earnRate: 1.5,
      redemptionRate: 100,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ merchant: { id: 'm-new', name: 'New Café', currency: 'EUR', outlets: [] } });
    expect(
      (
        await t.admin('POST', '/admin/merchants', {
          id: 'm-new',
          name: 'Again',
          currency: 'EUR',
          defaultCountryCode: '33',
          earnRate: 1,
          redemptionRate: 1,
        })
      ).json(),
    ).toMatchObject({ statusCode: 409, code: 'merchant_exists' });
    const bad = await t.admin('POST', '/admin/merchants', {
      id: 'm-x',
      name: 'X',
      currency: 'euro',
      defaultCountryCode: '+33',
      earnRate: -1,
      redemptionRate: 1,
      extra: true,
    });
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path).sort()).toEqual([
      'currency',
      'defaultCountryCode',
      'earnRate',
      'extra',
    ]);

    const outlet = await t.admin('POST', '/admin/merchants/m-new/outlets', { id: 'o-paris', name: 'Paris' });
    expect(outlet.statusCode).toBe(201);
    expect(outlet.json()).toEqual({
      merchant: { id: 'm-new', name: 'New Café', currency: 'EUR', outlets: [{ id: 'o-paris', name: 'Paris' }] },
    });
    expect((await t.admin('POST', '/admin/merchants/m-new/outlets', { id: 'o-paris', name: 'Paris' })).json()).toMatchObject({
      statusCode: 409,
      code: 'outlet_exists',
    });
    expect((await t.admin('POST', '/admin/merchants/m-ghost/outlets', { id: 'o-1', name: 'One' })).json()).toMatchObject({
      statusCode: 404,
      code: 'merchant_not_found',
    });

    // The new merchant and outlet take a connection at once.
    const connection = await t.admin('POST', '/admin/connections', {
      vendor: 'acme-pos',
      storeId: 'paris-1',
      merchantId: 'm-new',
      outletId: 'o-paris',
    });
    expect(connection.statusCode).toBe(201);
  });
});
