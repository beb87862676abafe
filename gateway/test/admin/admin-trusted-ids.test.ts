import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

// What an operator creates is what a person reads later (console, logs, the admin API): ids and
// names are stored in NFC, and refuse characters that hide or reorder text, and a store id
// refuses to be a look-alike of another store of the same vendor (issue 35, item 7).

const connection = (storeId: string, vendor = 'acme-pos') => ({ vendor, storeId, merchantId: 'm-bean', outletId: 'o-uptown' });
type ErrorBody = { statusCode: number; code: string; message: string; fields?: Array<{ path: string; message: string }> };

const HIDDEN: Array<[string, string]> = [
  ['\u202a', 'U+202A LEFT-TO-RIGHT EMBEDDING'],
  ['\u202b', 'U+202B RIGHT-TO-LEFT EMBEDDING'],
  ['\u202c', 'U+202C POP DIRECTIONAL FORMATTING'],
  ['\u202d', 'U+202D LEFT-TO-RIGHT OVERRIDE'],
  ['\u202e', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
  ['\u2066', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
  ['\u2067', 'U+2067 RIGHT-TO-LEFT ISOLATE'],
  ['\u2068', 'U+2068 FIRST STRONG ISOLATE'],
  ['\u2069', 'U+2069 POP DIRECTIONAL ISOLATE'],
  ['\u200e', 'U+200E LEFT-TO-RIGHT MARK'],
  ['\u200f', 'U+200F RIGHT-TO-LEFT MARK'],
  ['\u061c', 'U+061C ARABIC LETTER MARK'],
  ['\u200b', 'U+200B ZERO WIDTH SPACE'],
  ['\u200c', 'U+200C ZERO WIDTH NON-JOINER'],
  ['\u200d', 'U+200D ZERO WIDTH JOINER'],
  ['\u2060', 'U+2060 WORD JOINER'],
  ['\ufeff', 'U+FEFF ZERO WIDTH NO-BREAK SPACE'],
  ['\u00ad', 'U+00AD SOFT HYPHEN'],
  ['\u034f', 'U+034F COMBINING GRAPHEME JOINER'],
  ['\u3164', 'U+3164 HANGUL FILLER'],
  ['\ufe0f', 'U+FE0F VARIATION SELECTOR-16'],
  ['\u{e0041}', 'U+E0041 TAG LATIN CAPITAL LETTER A'],
];

describe.each(testDialects())('admin API: ids a person can trust ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
  });
  afterEach(() => t.close());

  it('a store id with a bidirectional control or an invisible character is refused, 422 naming the field, the character and where it is', async () => {
    for (const [char, named] of HIDDEN) {
      const response = await t.admin('POST', '/admin/connections', connection(`store${char}-009`));
      expect(response.statusCode, named).toBe(422);
      const body = response.json() as ErrorBody;
      expect(body.code).toBe('validation_failed');
      expect(body.fields).toEqual([{ path: 'storeId', message: expect.stringContaining(`must not contain ${named}`) }]);
      expect(body.fields![0]!.message).toMatch(/ at character 6$/);
    }
    expect(await t.store.listConnections({ vendor: 'acme-pos' })).toHaveLength(3);
  });

  it('merchant and outlet ids, vendor and merchant names refuse them too', async () => {
    const ids = await t.admin('POST', '/admin/connections', {
      ...connection('store-010'),
      merchantId: 'm-\u202ebean',
      outletId: 'o-up\u200btown',
    });
    expect(ids.statusCode).toBe(422);
    expect((ids.json() as ErrorBody).fields?.map((f) => f.path)).toEqual(['merchantId', 'outletId']);
    const vendor = await t.admin('POST', '/admin/vendors', { slug: 'rtl-pos', name: 'Acme \u202eSOP' });
    expect((vendor.json() as ErrorBody).fields).toEqual([
      { path: 'name', message: expect.stringMatching(/^must not contain U\+202E RIGHT-TO-LEFT OVERRIDE .* at character 6$/) },
    ]);
    const rename = await t.admin('PATCH', '/admin/vendors/acme-pos', { name: 'Acme\u2060POS' });
    expect((rename.json() as ErrorBody).fields?.map((f) => f.path)).toEqual(['name']);
    const merchant = await t.admin('POST', '/admin/merchants', {
      id: 'm-\u200dnew',
      name: 'New\u00adCafe',
      currency: 'USD',
      defaultCountryCode: '1',
      earnRate: 1,
      redemptionRate: 1,
    });
    expect((merchant.json() as ErrorBody).fields?.map((f) => f.path)).toEqual(['id', 'name']);
    expect((await t.store.getVendor('acme-pos'))?.name).toBe('Acme POS');
  });

  it('ids and names are stored in NFC: a decomposed é is stored composed', async () => {
    const created = await t.admin('POST', '/admin/connections', connection('Cafe\u0301 Central/1'));
    expect(created.statusCode).toBe(201);
    expect((created.json() as { connection: { storeId: string } }).connection.storeId).toBe('Caf\u00e9 Central/1');
    expect(await t.store.find('acme-pos', 'Caf\u00e9 Central/1')).toMatchObject({ storeId: 'Caf\u00e9 Central/1' });
    const vendor = await t.admin('POST', '/admin/vendors', { slug: 'cafe-pos', name: 'Cafe\u0301 POS' });
    expect(vendor.statusCode).toBe(201);
    expect((await t.store.getVendor('cafe-pos'))?.name).toBe('Caf\u00e9 POS');
  });

  it('a look-alike of an existing store id of the same vendor is refused, naming the existing one', async () => {
    for (const lookAlike of [
      'store\u2010001', // HYPHEN
      'store\u2011001', // NON-BREAKING HYPHEN
      'store\u2013001', // EN DASH
      'store\u2212001', // MINUS SIGN
      'store\uff0d001', // FULLWIDTH HYPHEN-MINUS
      '\uff53\uff54\uff4f\uff52\uff45-\uff10\uff10\uff11', // full-width letters and digits
      'Main\u00a0St/Unit 7', // NO-BREAK SPACE for the space of 'Main St/Unit 7'
      'Main St/Unit \u2466', // CIRCLED DIGIT SEVEN
    ]) {
      const response = await t.admin('POST', '/admin/connections', connection(lookAlike));
      expect(response.statusCode, lookAlike).toBe(422);
      const body = response.json() as ErrorBody;
      expect(body.code).toBe('validation_failed');
      const existing = lookAlike.startsWith('Main') ? 'Main St/Unit 7' : 'store-001';
      expect(body.fields).toEqual([
        { path: 'storeId', message: expect.stringContaining(`looks like the existing store id "${existing}" of acme-pos`) },
      ]);
      expect(body.message).toContain(`"${existing}"`);
    }
    const hyphen = (await t.admin('POST', '/admin/connections', connection('store\u2010001'))).json() as ErrorBody;
    expect(hyphen.fields![0]!.message).toMatch(/: U\+2010 HYPHEN where it has U\+002D HYPHEN-MINUS, at character 6$/);
    // Another vendor's stores are not compared (the ids are that vendor's), nor is case (ids are case-sensitive).
    expect((await t.admin('POST', '/admin/connections', connection('store\u2010001', 'other-pos'))).statusCode).toBe(201);
    expect((await t.admin('POST', '/admin/connections', connection('STORE-001'))).statusCode).toBe(201);
    expect(await t.store.listConnections({ vendor: 'acme-pos' })).toHaveLength(4);
  });

  it('an exact duplicate is still 409 connection_exists', async () => {
    expect((await t.admin('POST', '/admin/connections', connection('store-001'))).json()).toMatchObject({
      statusCode: 409,
      code: 'connection_exists',
    });
  });

  it('lookups are not creations: filters keep reading what vendors sent, hidden characters included', async () => {
    const listed = await t.admin('GET', `/admin/connections?merchantId=${encodeURIComponent('m-\u202ebean')}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ connections: [] });
  });
});
