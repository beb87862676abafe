import { ErrorBody } from '@loyalty-gateway/core';
import { ODD_JSON_VALUES, mutatedJson } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

/** Generated requests per dialect (FUZZ_RUNS); FUZZ_SEED=N explores others (the fixed seed keeps CI repeatable). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);

/** A valid request of each admin write, the connection id filled in once the app runs. */
function writes(connectionId: string): Array<{ method: string; url: string; body: unknown }> {
  return [
    { method: 'POST', url: '/admin/vendors', body: { slug: 'acme-pos', name: 'Acme POS' } },
    { method: 'PATCH', url: '/admin/vendors/clover', body: { name: 'Clover POS' } },
    {
      method: 'PUT',
      url: '/admin/vendors/clover/settings',
      body: { authCode: 'clover-auth-code-2', apiBaseUrl: 'https://api.clover.com' },
    },
    {
      method: 'POST',
      url: '/admin/connections',
      body: {
        vendor: 'clover',
        storeId: 'QWEVJT2ABCRSC',
        merchantId: 'm-bean',
        outletId: 'o-downtown',
        credentials: { accessToken: 'tok' },
      },
    },
    { method: 'POST', url: `/admin/connections/${connectionId}/rotate`, body: { overlapSeconds: 3600 } },
    { method: 'PUT', url: `/admin/connections/${connectionId}/credentials`, body: {} },
    {
      method: 'POST',
      url: '/admin/merchants',
      body: { id: 'm-fuzz', name: 'Fuzz Coffee', currency: 'USD', defaultCountryCode: '1', earnRate: 1, redemptionRate: 100 },
    },
    { method: 'POST', url: '/admin/merchants/m-bean/outlets', body: { id: 'o-fuzz', name: 'Fuzz outlet' } },
  ];
}

/** The admin lists and their query parameters. */
const lists: Array<{ url: string; parameters: string[] }> = [
  {
    url: '/admin/deliveries',
    parameters: ['vendor', 'store', 'connectionId', 'status', 'code', 'since', 'until', 'transactionId', 'limit', 'cursor'],
  },
  { url: '/admin/catalog-runs', parameters: ['vendor', 'connectionId', 'limit'] },
  { url: '/admin/reconcile-runs', parameters: ['vendor', 'connectionId', 'limit'] },
  { url: '/admin/connections', parameters: ['vendor', 'merchantId'] },
];

const queryValue = fc.oneof(
  fc.constantFrom(...ODD_JSON_VALUES.filter((v): v is string => typeof v === 'string')),
  fc.constantFrom('500', '0', '1000', '1001', '99999', '2026-11-28T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-1', 'clover', 'MTIzfGFi'),
  fc.string(),
);

/** Every admin answer: never a 5xx; a refusal is the spec's Error body agreeing with its status and X-Request-ID (validation names its fields). */
function checkAnswer(response: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }) {
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (response.statusCode < 300) return;
  const error = ErrorBody.parse(response.json());
  expect(error.statusCode).toBe(response.statusCode);
  expect(error.requestId).toBe(response.headers['x-request-id']);
  if (error.code === 'validation_failed') expect(error.fields?.length ?? 0).toBeGreaterThan(0);
}

/**
 * The admin API under generated input (docs/operators.md): each write's valid body with a few of
 * its values changed (odd values, arbitrary JSON, deletions, extra keys) and each list with
 * arbitrary query parameters. Whatever arrives: never a 5xx, a refusal is the Error shape, and a
 * refused write changes nothing an operator can list.
 */
describe.each(testDialects())('fuzz: the admin API under generated bodies and queries ($name)', ({ name }) => {
  let t: OperatorApp;
  let connectionId: string;
  beforeAll(async () => {
    t = await openOperatorApp({ dialect: name, journal: true });
    connectionId = ((await t.admin('GET', '/admin/connections')).json() as { connections: Array<{ id: string }> }).connections[0]!.id;
  });
  afterAll(() => t?.close());

  const snapshot = async () =>
    JSON.stringify(
      await Promise.all(
        ['/admin/vendors', '/admin/connections', '/admin/merchants'].map(async (url) => (await t.admin('GET', url)).json()),
      ),
    ).replace(/"(lastSeenAt|updatedAt)":[^,}]*/g, '');

  it(`${RUNS} writes with changed bodies: no 5xx, refusals in the Error shape, a refused write changes nothing`, async () => {
    const statuses = new Map<number, number>();
    const request = fc.constantFrom(...writes(connectionId)).chain((write) => mutatedJson(write.body).map((body) => ({ ...write, body })));
    await fc.assert(
      fc.asyncProperty(request, async ({ method, url, body }) => {
        const before = await snapshot();
        const response = await t.admin(method, url, JSON.stringify(body) ?? 'null');
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        checkAnswer(response);
        if (response.statusCode >= 400) expect(await snapshot()).toBe(before);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both sides reached: writes taken and writes refused.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
  }, 120_000);

  it(`${RUNS} list queries with arbitrary parameters: no 5xx, refusals in the Error shape`, async () => {
    const query = fc
      .constantFrom(...lists)
      .chain(({ url, parameters }) =>
        fc
          .dictionary(fc.oneof(fc.constantFrom(...parameters), fc.string({ minLength: 1, maxLength: 8 })), queryValue, { maxKeys: 4 })
          .map((params) => `${url}?${new URLSearchParams(params).toString()}`),
      );
    await fc.assert(
      fc.asyncProperty(query, async (url) => checkAnswer(await t.admin('GET', url))),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);
});
