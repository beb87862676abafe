import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { Envelope, parseEnvelope } from './envelope.js';

const sale = () => ({
  eventId: 'evt-1',
  eventType: 'sale.completed',
  occurredAt: '2026-11-20T10:15:00Z',
  store: { id: 'store-001', name: 'Downtown' },
  transaction: {
    id: 'T-1001',
    total: 19.99,
    currency: 'USD',
    channel: 'pos',
    customer: { type: 'phone', value: '+15550100001' },
    items: [{ id: 'p1', name: 'Latte', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 }],
    discountCodes: [{ code: 'LOYAL-7QX2', amount: 5, type: 'fixed_amount' }],
  },
});

function failure(input: unknown): GatewayError {
  try {
    parseEnvelope(input);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a validation failure');
}

const set = (path: string, value: unknown) => {
  const body = sale() as Record<string, any>;
  const keys = path.split('.');
  let target = body;
  for (const key of keys.slice(0, -1)) target = target[key];
  const last = keys.at(-1)!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return body;
};

describe('Envelope', () => {
  it('accepts a complete sale, a walk-in and an empty items list', () => {
    expect(parseOrThrow(Envelope, sale()).eventType).toBe('sale.completed');
    expect(() => parseOrThrow(Envelope, set('transaction.customer', undefined))).not.toThrow();
    expect(() => parseOrThrow(Envelope, set('transaction.items', []))).not.toThrow();
    expect(() => parseOrThrow(Envelope, set('occurredAt', '2026-11-20T10:15:00.123+02:00'))).not.toThrow();
  });

  it.each([
    ['eventId'],
    ['occurredAt'],
    ['store'],
    ['store.id'],
    ['transaction.id'],
    ['transaction.total'],
    ['transaction.currency'],
    ['transaction.items'],
  ])('a missing %s is 400 missing_field naming the path', (path) => {
    const error = failure(set(path, undefined));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('missing_field');
    expect(error.fields).toContainEqual({ path, message: 'is required' });
  });

  it.each([
    ['transaction.total', 10.005, 'transaction.total'],
    ['transaction.total', 0, 'transaction.total'],
    ['transaction.total', -1, 'transaction.total'],
    ['transaction.total', '19.99', 'transaction.total'],
    ['transaction.currency', 'usd', 'transaction.currency'],
    ['transaction.currency', 'DOLLARS_USA', 'transaction.currency'],
    ['transaction.channel', 'x'.repeat(51), 'transaction.channel'],
    ['transaction.customer', { type: 'twitter', value: 'a' }, 'transaction.customer.type'],
    ['transaction.customer', { type: 'email', value: 'x'.repeat(256) }, 'transaction.customer.value'],
    ['transaction.items', [{ name: 'a', quantity: 0, unitPrice: 1 }], 'transaction.items[0].quantity'],
    ['transaction.items', [{ name: 'a', quantity: 1.5, unitPrice: 1 }], 'transaction.items[0].quantity'],
    ['transaction.items', [{ name: 'a', quantity: 1, unitPrice: 0 }], 'transaction.items[0].unitPrice'],
    ['transaction.items', [{ name: 'x'.repeat(256), quantity: 1, unitPrice: 1 }], 'transaction.items[0].name'],
    ['transaction.discountCodes', [{ code: 'A', amount: -0.01 }], 'transaction.discountCodes[0].amount'],
    ['transaction.discountCodes', [{ code: 'A', type: 'x'.repeat(51) }], 'transaction.discountCodes[0].type'],
    ['eventId', 'x'.repeat(256), 'eventId'],
    ['store.id', 'x'.repeat(256), 'store.id'],
    ['transaction.id', 'x'.repeat(256), 'transaction.id'],
    ['occurredAt', 'yesterday', 'occurredAt'],
    ['occurredAt', '2026-11-20 10:15', 'occurredAt'],
    ['eventType', 42, 'eventType'],
  ])('%s = %j is 422 validation_failed at %s', (path, value, fieldPath) => {
    const error = failure(set(path, value));
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.fields?.map((f) => f.path)).toContain(fieldPath);
  });

  it.each([
    ['transaction.id', 'T-1\u0000001'],
    ['transaction.id', 'T-\ud800'],
    ['store.id', 'store-\u0000'],
    ['eventId', '\udc00evt'],
    ['transaction.customer.value', '+1555\u00000100001'],
  ])('%s = %j (a NUL character or an unpaired surrogate, which no database stores as sent) is 422 naming the path', (path, value) => {
    const error = failure(set(path, value));
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.fields).toEqual([{ path, message: 'must not contain NUL characters or unpaired surrogates' }]);
  });

  it('text with characters outside the BMP, quotes and other control characters is accepted as sent', () => {
    const id = 'T-\ud83d\ude00-"\'\t\u0001-\u00e9';
    expect(parseOrThrow(Envelope, set('transaction.id', id)).transaction.id).toBe(id);
  });

  it('quantity 1e16 is refused as beyond the safe range, naming the limit (not "must be an integer")', () => {
    const items = (quantity: number) => set('transaction.items', [{ name: 'a', quantity, unitPrice: 1 }]);
    expect(failure(items(1e16)).fields).toEqual([
      { path: 'transaction.items[0].quantity', message: 'must be at most 9,007,199,254,740,991' },
    ]);
    expect(failure(items(1.5)).fields).toEqual([{ path: 'transaction.items[0].quantity', message: 'must be an integer' }]);
    // a more specific rule on the same value wins over the safe-range note
    expect(failure(items(-1e16)).fields).toEqual([{ path: 'transaction.items[0].quantity', message: 'must be at least 1' }]);
    expect(failure(set('transaction.total', 1e300)).fields).toEqual([
      { path: 'transaction.total', message: 'must be at most 999,999,999,999.99' },
    ]);
  });

  it('accepts every limit exactly at its maximum', () => {
    const body = sale();
    body.eventId = 'x'.repeat(255);
    body.store.id = 's'.repeat(255);
    body.transaction.id = 't'.repeat(255);
    body.transaction.channel = 'c'.repeat(50);
    body.transaction.items[0]!.name = 'n'.repeat(255);
    body.transaction.items[0]!.sku = 'k'.repeat(255);
    body.transaction.discountCodes[0]!.code = 'd'.repeat(255);
    body.transaction.discountCodes[0]!.type = 'y'.repeat(50);
    expect(() => parseOrThrow(Envelope, body)).not.toThrow();
  });

  it('names every unknown field, at any depth, as 422', () => {
    const body = sale() as any;
    body.extra = 1;
    body.transaction.items[0].colour = 'red';
    body.store.region = 'north';
    const error = failure(body);
    expect(error.statusCode).toBe(422);
    expect(error.fields?.map((f) => f.path).sort()).toEqual(['extra', 'store.region', 'transaction.items[0].colour']);
  });

  it('requires refund on sale.refunded and only id and currency in its transaction', () => {
    const refund = {
      eventId: 'evt-2',
      eventType: 'sale.refunded',
      occurredAt: '2026-11-20T11:00:00Z',
      store: { id: 'store-001' },
      transaction: { id: 'T-1001', currency: 'USD' },
      refund: { id: 'R-1', amount: 5 },
    };
    expect(parseOrThrow(Envelope, refund).eventType).toBe('sale.refunded');
    expect(failure({ ...refund, refund: undefined }).fields).toContainEqual({ path: 'refund', message: 'is required' });
    expect(failure({ ...refund, transaction: { id: 'T-1001' } }).code).toBe('missing_field');
    expect(failure({ ...refund, refund: { id: 'R-1', amount: 0.001 } }).fields?.[0]?.path).toBe('refund.amount');
    expect(failure({ ...refund, transaction: { id: 'T', currency: 'USD', total: 0 } }).code).toBe('validation_failed');
  });

  it('with eventType missing or not a string, fields lists every problem, not only eventType, and 400 wins', () => {
    const paths = (error: GatewayError) => (error.fields ?? []).map((f) => f.path).sort();
    const empty = failure({});
    expect(empty).toMatchObject({ statusCode: 400, code: 'missing_field' });
    expect(paths(empty)).toEqual(['eventId', 'eventType', 'occurredAt', 'store', 'transaction']);
    const unknown = failure({ foo: 1 });
    expect(paths(unknown)).toEqual(['eventId', 'eventType', 'foo', 'occurredAt', 'store', 'transaction']);
    expect(unknown.fields).toContainEqual({ path: 'foo', message: 'unknown field' });
    const wrongType = failure({ eventType: 5, foo: 1 });
    expect(wrongType).toMatchObject({ statusCode: 400, code: 'missing_field' });
    expect(paths(wrongType)).toEqual(['eventId', 'eventType', 'foo', 'occurredAt', 'store', 'transaction']);
    expect(wrongType.fields).toContainEqual({ path: 'eventType', message: 'must be one of sale.completed, sale.refunded, sale.voided' });
  });

  it('with eventType missing, the shared fields are still validated in full', () => {
    const body = set('eventType', undefined) as any;
    body.transaction.total = 10.005;
    body.store.region = 'north';
    const error = failure(body);
    expect(error.code).toBe('missing_field');
    expect(error.fields).toEqual([
      { path: 'eventType', message: 'is required' },
      { path: 'store.region', message: 'unknown field' },
      { path: 'transaction.total', message: expect.stringContaining('0.01') },
    ]);
    // only eventType wrong, everything else valid: 422, naming eventType alone
    const onlyType = failure(set('eventType', 7));
    expect(onlyType).toMatchObject({ statusCode: 422, fields: [{ path: 'eventType' }] });
  });

  it('rejects a refund object on a sale.completed event as an unknown field', () => {
    const error = failure({ ...sale(), refund: { id: 'R-1' } });
    expect(error.statusCode).toBe(422);
    expect(error.fields).toContainEqual({ path: 'refund', message: 'unknown field' });
  });
});
