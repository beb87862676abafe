import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CatalogSyncRequest, Envelope, RedeemRequest } from '@loyalty-gateway/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund, sale } from '../../src/testing/test-seed.js';
import { openApiDocument } from '../../src/openapi/openapi-document.js';
import { OPENAPI_FILE, renderOpenApi } from '../../src/openapi/render-openapi.js';

type Doc = { components: unknown; paths: Record<string, Record<string, { responses: Record<string, unknown>; operationId: string }>> };
const doc = openApiDocument() as unknown as Doc;

describe('the OpenAPI document', () => {
  it('is committed as built (run `npm run openapi` after changing a schema, the error table or an endpoint)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApi());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("names every operation of the spec with the spec's statuses (and the gateway's documented additions)", () => {
    const statuses = (path: string, method = 'post') => Object.keys(doc.paths[path]![method]!.responses).sort();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids).toEqual(
      expect.arrayContaining(['postGenericWebhook', 'postEligibility', 'postRedeem', 'postRefund', 'postCatalogSync', 'getHealth']),
    );
    expect(statuses('/webhooks/generic')).toEqual(expect.arrayContaining(['200', '400', '401', '422', '429', '500']));
    expect(statuses('/v1/redemption/eligibility')).toEqual(expect.arrayContaining(['200', '400', '401', '502']));
    expect(statuses('/v1/redemption/redeem')).toEqual(expect.arrayContaining(['200', '400', '401', '404', '409', '502']));
    expect(statuses('/v1/refund')).toEqual(expect.arrayContaining(['200', '400', '401', '502']));
    expect(statuses('/v1/catalog/sync')).toEqual(expect.arrayContaining(['200', '400', '401', '502']));
    expect(statuses('/health', 'get')).toEqual(['200']);
    // Nothing the spec reserves for other endpoints: 502 is not the webhook's, 409 only redeem's.
    expect(statuses('/webhooks/generic')).not.toContain('502');
    expect(statuses('/v1/refund')).not.toContain('409');
  });

  it("marks the gateway's additions as extensions, each with its response schema, and leaves the spec's operations as they were", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op: op as unknown as Record<string, any> })),
    );
    const extensions = operations.filter(({ op }) => op['x-extension'] === true).map(({ method, path }) => `${method} ${path}`);
    expect(extensions).toEqual(['post /v1/earn/preview', 'get /v1/deliveries', 'post /admin/adapters/{slug}/preview']);
    const schemaOf = (path: string, method: string) => doc.paths[path]![method]!.responses['200'] as Record<string, any>;
    expect(schemaOf('/v1/earn/preview', 'post').content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EarnPreview' });
    expect(schemaOf('/v1/deliveries', 'get').content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DeliveryLogPage' });
    expect(schemaOf('/admin/adapters/{slug}/preview', 'post').content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AdapterPreview',
    });
    // The preview is refused as the earn is: the same statuses, signed the same way; the admin preview needs the admin token.
    const previewed = doc.paths['/v1/earn/preview']!.post as unknown as Record<string, any>;
    const earned = doc.paths['/webhooks/generic']!.post as unknown as Record<string, any>;
    expect(Object.keys(previewed.responses).sort()).toEqual(Object.keys(earned.responses).sort());
    expect(previewed.security).toEqual(earned.security);
    expect((doc.paths['/admin/adapters/{slug}/preview']!.post as unknown as Record<string, any>).security).toEqual([{ adminToken: [] }]);
    expect(
      ((doc.paths['/v1/deliveries']!.get as unknown as Record<string, any>).parameters as Array<{ name?: string }>)
        .map((p) => p.name)
        .filter(Boolean),
    ).toEqual(['since', 'until', 'status', 'transactionId', 'limit', 'cursor']);
  });
});

describe("the document's schemas agree with the validation", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 9 });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const validator = (name: string) => ajv.getSchema(`doc#/components/schemas/${name}`)!;

  const agree = (name: string, schema: z.ZodType, input: unknown) => {
    expect({ input, valid: validator(name)(input) }).toEqual({ input, valid: schema.safeParse(input).success });
  };

  it('on the envelope: valid sales and refunds, and each kind of fault', () => {
    const good = sale({ id: 'T-1' });
    for (const input of [
      good,
      refund('T-1', 'R-1'),
      refund('T-1', 'R-2', 3.33),
      { ...good, eventType: 'sale.voided' },
      { ...good, extra: 1 },
      { ...good, eventId: '' },
      { ...good, eventId: 'x'.repeat(256) },
      { ...good, occurredAt: 'yesterday' },
      { ...good, transaction: { ...good.transaction, total: 0 } },
      { ...good, transaction: { ...good.transaction, total: 10.005 } },
      { ...good, transaction: { ...good.transaction, total: 19.99 } },
      { ...good, transaction: { ...good.transaction, currency: 'usd' } },
      { ...good, transaction: { ...good.transaction, items: [{ name: 'Latte', quantity: 0, unitPrice: 4.5 }] } },
      { ...good, transaction: { ...good.transaction, items: [{ name: 'Latte', quantity: 1.5, unitPrice: 4.5 }] } },
      { ...good, transaction: { ...good.transaction, customer: { type: 'nickname', value: 'x' } } },
      { ...good, transaction: { id: 'T-1', currency: 'USD' } },
    ])
      agree('Envelope', Envelope, input);
  });

  it('on money amounts of every size and precision (fuzzed)', () => {
    const cents = fc.integer({ min: -1000, max: 10_000_000 }).map((n) => n / 100);
    const thirds = fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1000);
    fc.assert(
      fc.property(fc.oneof(cents, thirds), (amount) => {
        agree('CatalogSyncRequest', CatalogSyncRequest, {
          store: { id: 's' },
          items: [{ externalId: 'e', name: 'n', isActive: true, price: amount }],
        });
      }),
      { numRuns: 300 },
    );
  });

  it("on redeem requests (the selector rule itself is the route's, not the schema's)", () => {
    const base = { customer: { type: 'membershipId', value: 'M' }, externalTransactionId: 'T-1' };
    for (const input of [
      { ...base, rewardId: '6f1c2a7e-0b7d-4c1a-9a3e-000000000001' },
      { ...base, rewardId: 'not-a-uuid' },
      { ...base, pointsToRedeem: 0 },
      { ...base, pointsToRedeem: 100, orderValue: 5.5 },
    ]) {
      agree('RedeemRequest', RedeemRequest, input);
    }
  });
});

describe('GET /openapi.json', () => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves the document without authentication', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(JSON.parse(renderOpenApi()));
  });
});
