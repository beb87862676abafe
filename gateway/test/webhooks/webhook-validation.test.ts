import { ErrorBody } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund, sale } from '../../src/testing/test-seed.js';

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway();
});
afterAll(() => gw.close());

async function expectRejected(body: unknown, status: number, code: string) {
  const before = await gw.balance('MBR-0001');
  const response = await gw.send(body);
  expect(response.statusCode, response.body).toBe(status);
  const error = ErrorBody.parse(response.json());
  expect(error.code).toBe(code);
  expect(await gw.balance('MBR-0001')).toBe(before);
  return error;
}

const paths = (error: ErrorBody) => (error.fields ?? []).map((f) => f.path);

/** A valid sale with one change made by `mutate`. */
function saleWith(mutate: (s: any) => void) {
  const s: any = sale();
  mutate(s);
  return s;
}

describe('400: malformed body, missing fields', () => {
  it('invalid JSON → 400 malformed_json', async () => {
    await expectRejected('{"eventId": ', 400, 'malformed_json');
    await expectRejected('', 400, 'malformed_json');
    await expectRejected(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, 'malformed_json');
  });

  it('a bad signature over invalid JSON is 401 bad_signature, not 400: the signature is checked before the body is parsed', async () => {
    const before = await gw.balance('MBR-0001');
    for (const options of [
      { signature: 'v1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      { secret: 'whsec_not_the_secret_0123456789' },
      { signature: null },
    ]) {
      const response = await gw.send('{"eventId": ', options);
      expect(response.statusCode, response.body).toBe(401);
      expect(ErrorBody.parse(response.json())).toMatchObject({ code: 'bad_signature' });
    }
    expect(await gw.balance('MBR-0001')).toBe(before);
  });

  it.each([['[]'], ['"sale"'], ['42'], ['null'], ['true']])('JSON that is not an object (%s) → 400 malformed_body', async (body) => {
    await expectRejected(body, 400, 'malformed_body');
  });

  it('missing eventType → 400 missing_field naming it', async () => {
    const error = await expectRejected(
      saleWith((s) => delete s.eventType),
      400,
      'missing_field',
    );
    expect(paths(error)).toContain('eventType');
  });

  it('{} and {"eventType":5,"foo":1}: 400 listing every problem, not only eventType (and not 422)', async () => {
    const empty = await expectRejected('{}', 400, 'missing_field');
    expect(paths(empty).sort()).toEqual(['eventId', 'eventType', 'occurredAt', 'store', 'transaction']);
    const wrongType = await expectRejected('{"eventType":5,"foo":1}', 400, 'missing_field');
    expect(paths(wrongType).sort()).toEqual(['eventId', 'eventType', 'foo', 'occurredAt', 'store', 'transaction']);
  });

  it('a 120 KB body of 40,000 {} items: the 400 lists at most 100 fields, not all 120,000 (8 MB)', async () => {
    const body = saleWith((s) => (s.transaction.items = Array.from({ length: 40_000 }, () => ({}))));
    const response = await gw.send(body);
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(20_000);
    const error = ErrorBody.parse(response.json());
    expect(error.fields).toHaveLength(100);
    expect(error.message).toContain('and 119,999 more; fields lists the first 100');
  });

  it('missing required fields → 400 missing_field with every path', async () => {
    const error = await expectRejected(
      saleWith((s) => {
        delete s.eventId;
        delete s.transaction.total;
        delete s.transaction.items[1].name;
      }),
      400,
      'missing_field',
    );
    expect(paths(error)).toEqual(expect.arrayContaining(['eventId', 'transaction.total', 'transaction.items[1].name']));
  });

  it('sale.refunded without refund → 400 missing_field', async () => {
    const body: any = refund('T-x', 'R-x');
    delete body.refund;
    expect(paths(await expectRejected(body, 400, 'missing_field'))).toContain('refund');
  });
});

describe('422: validation_failed with fields', () => {
  it.each([
    ['unknown top-level field', (s: any) => (s.extra = 1), 'extra'],
    ['unknown nested field', (s: any) => (s.transaction.items[0].colour = 'red'), 'transaction.items[0].colour'],
    ['wrong type', (s: any) => (s.transaction.total = '12.50'), 'transaction.total'],
    ['total with 3 decimals', (s: any) => (s.transaction.total = 10.005), 'transaction.total'],
    ['total 0', (s: any) => (s.transaction.total = 0), 'transaction.total'],
    ['negative total', (s: any) => (s.transaction.total = -1), 'transaction.total'],
    ['quantity 0', (s: any) => (s.transaction.items[0].quantity = 0), 'transaction.items[0].quantity'],
    ['fractional quantity', (s: any) => (s.transaction.items[0].quantity = 1.5), 'transaction.items[0].quantity'],
    ['unit price 0', (s: any) => (s.transaction.items[0].unitPrice = 0), 'transaction.items[0].unitPrice'],
    ['bad date-time', (s: any) => (s.occurredAt = 'yesterday'), 'occurredAt'],
    ['customer type', (s: any) => (s.transaction.customer.type = 'loyaltyCard'), 'transaction.customer.type'],
    ['eventType not a string', (s: any) => (s.eventType = 7), 'eventType'],
    ['items not an array', (s: any) => (s.transaction.items = {}), 'transaction.items'],
    [
      'negative discount amount',
      (s: any) => (s.transaction.discountCodes = [{ code: 'X', amount: -1 }]),
      'transaction.discountCodes[0].amount',
    ],
  ])('%s → 422', async (_what, mutate, path) => {
    const error = await expectRejected(saleWith(mutate), 422, 'validation_failed');
    expect(error.fields!.length).toBeGreaterThan(0);
    expect(paths(error)).toContain(path);
  });

  it.each([
    ['eventId', 255, (s: any, v: string) => (s.eventId = v)],
    ['transaction.id', 255, (s: any, v: string) => (s.transaction.id = v)],
    ['transaction.customer.value', 255, (s: any, v: string) => (s.transaction.customer.value = v)],
    ['transaction.items[0].name', 255, (s: any, v: string) => (s.transaction.items[0].name = v)],
    ['transaction.items[0].sku', 255, (s: any, v: string) => (s.transaction.items[0].sku = v)],
    ['transaction.discountCodes[0].code', 255, (s: any, v: string) => (s.transaction.discountCodes = [{ code: v }])],
    ['transaction.channel', 50, (s: any, v: string) => (s.transaction.channel = v)],
    ['transaction.discountCodes[0].type', 50, (s: any, v: string) => (s.transaction.discountCodes = [{ code: 'X', type: v }])],
  ])('max length of %s: %i ok, one more fails', async (path, max, set) => {
    const ok = await gw.send(saleWith((s) => set(s, `${'a'.repeat(max - 1)}${s.transaction.id.slice(-1)}`)));
    expect(ok.statusCode, ok.body).toBe(200);
    const error = await expectRejected(
      saleWith((s) => set(s, 'a'.repeat(max + 1))),
      422,
      'validation_failed',
    );
    expect(paths(error)).toEqual([path]);
  });

  it('90071992547409.92 / 1e300 and quantity 1e16: the messages name the limit (not "must be a multiple of 0.01" / "must be an integer")', async () => {
    for (const total of [90071992547409.92, 1e300]) {
      const error = await expectRejected(
        saleWith((s) => (s.transaction.total = total)),
        422,
        'validation_failed',
      );
      expect(error.fields).toEqual([{ path: 'transaction.total', message: 'must be at most 999,999,999,999.99' }]);
    }
    const ok = await gw.send(saleWith((s) => (s.transaction.total = 999_999_999_999.99)));
    expect(ok.statusCode, ok.body).toBe(200);
    const error = await expectRejected(
      saleWith((s) => (s.transaction.items[0].quantity = 1e16)),
      422,
      'validation_failed',
    );
    expect(error.fields).toEqual([{ path: 'transaction.items[0].quantity', message: 'must be at most 9,007,199,254,740,991' }]);
  });

  it('store.name and items[].id take more than 255 characters: the spec gives them no limit', async () => {
    const response = await gw.send(
      saleWith((s) => {
        s.store.name = 'n'.repeat(2000);
        s.transaction.items[0].id = 'i'.repeat(2000);
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'processed' });
  });

  it('currency: 10 characters is the field limit (and it must be an ISO code)', async () => {
    const error = await expectRejected(
      saleWith((s) => (s.transaction.currency = 'ABCDEFGHIJK')),
      422,
      'validation_failed',
    );
    expect(paths(error)).toContain('transaction.currency');
  });

  it('store.id 255 ok (when it equals the header), 256 fails', async () => {
    const longStore = 's'.repeat(255);
    const secret = 'whsec_long_store_secret_0123456789';
    await gw.store.createConnection({ vendor: 'acme-pos', storeId: longStore, merchantId: 'm-bean', outletId: 'o-downtown', secret });
    const ok = await gw.send(sale({ store: longStore }), { store: longStore, secret });
    expect(ok.statusCode, ok.body).toBe(200);
    const error = await expectRejected(
      saleWith((s) => (s.store.id = 'a'.repeat(256))),
      422,
      'validation_failed',
    );
    expect(paths(error)).toEqual(['store.id']);
  });

  it('max length of refund.id: 255 ok, 256 → 422 naming refund.id', async () => {
    const withId = (id: string) => ({ ...refund('T-never-sent', id), eventId: `EV-${id.length}-${Date.now()}` });
    const ok = await gw.send(withId(String(Date.now()).padStart(255, 'r')));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'processed', pointsReversed: 0 });
    const error = await expectRejected(withId('r'.repeat(256)), 422, 'validation_failed');
    expect(paths(error)).toEqual(['refund.id']);
  });

  it('refund amount with 3 decimals → 422', async () => {
    const error = await expectRejected(refund('T-y', 'R-y', 1.005), 422, 'validation_failed');
    expect(paths(error)).toEqual(['refund.amount']);
  });
});

describe('400 store_mismatch', () => {
  it('store.id differs from the X-Service-Store header (exact comparison)', async () => {
    await expectRejected(
      saleWith((s) => (s.store.id = 'STORE-001')),
      400,
      'store_mismatch',
    );
    await expectRejected(
      saleWith((s) => (s.store.id = 'store-001 ')),
      400,
      'store_mismatch',
    );
    await expectRejected({ ...refund('T-z', 'R-z'), store: { id: 'store-002' } }, 400, 'store_mismatch');
  });
});
