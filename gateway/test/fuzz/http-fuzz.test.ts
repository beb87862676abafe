import { ErrorBody, WebhookResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { jsonPaths, mutateJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sale } from '../../src/testing/test-seed.js';
import { headersFor, nowSeconds, openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';

const REQUESTS = 10_000;

interface Shot {
  body: string | Buffer;
  headers: Record<string, string>;
  kind: string;
}

let counter = 0;
/** One generated request: a valid sale, a mutated envelope, bad headers, or odd bytes and encodings. */
const shot: fc.Arbitrary<Shot> = fc.oneof(
  fc
    .record({ total: fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100), member: fc.constantFrom('MBR-0001', 'MBR-0002', 'NOBODY') })
    .map(({ total, member }) => {
      const body = JSON.stringify(sale({ id: `FZ-${process.pid}-${++counter}`, total, customer: { type: 'membershipId', value: member } }));
      return { body, headers: headersFor(body), kind: 'valid' };
    }),
  fc.tuple(fc.nat(), fc.constantFrom<'set' | 'delete'>('set', 'delete'), fc.jsonValue({ maxDepth: 2 })).map(([pick, op, value]) => {
    const base = sale({ id: `FZ-M-${process.pid}-${++counter}` });
    const paths = jsonPaths(base);
    const body = JSON.stringify(mutateJson(base, paths[pick % paths.length]!, op, value));
    return { body, headers: headersFor(body), kind: 'mutated' };
  }),
  fc
    .tuple(
      fc.constantFrom('signature', 'timestamp', 'vendor', 'store', 'content-type', 'request-id', 'encoding'),
      fc.string({ maxLength: 40 }),
    )
    .map(([field, junk]) => {
      const body = JSON.stringify(sale({ id: `FZ-H-${process.pid}-${++counter}` }));
      const headers = headersFor(body);
      const printable = junk.replace(/[^\x20-\x7e]/g, '');
      switch (field) {
        case 'signature':
          headers['x-service-signature'] = `v1=${Buffer.from(printable).toString('base64')}`;
          break;
        case 'timestamp':
          Object.assign(headers, headersFor(body, { timestamp: nowSeconds() - 301 - printable.length }));
          break;
        case 'vendor':
          headers['x-service-vendor'] = printable;
          break;
        case 'store':
          headers['x-service-store'] = printable;
          break;
        case 'content-type':
          headers['content-type'] = printable || 'text/plain';
          break;
        case 'request-id':
          headers['x-request-id'] = printable;
          break;
        case 'encoding':
          headers['content-encoding'] = 'gzip';
          break;
      }
      return { body, headers, kind: `header:${field}` };
    }),
  fc
    .oneof(
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      fc.string({ maxLength: 300 }),
      fc.json(),
    )
    .map((bytes) => ({ body: bytes, headers: headersFor(bytes), kind: 'bytes' })),
  // Ids carrying characters JSON allows but no database stores as sent (NUL, unpaired surrogates),
  // beside ones it does (other control characters, characters outside the BMP).
  fc
    .tuple(
      fc.constantFrom('transaction.id', 'eventId', 'transaction.customer.value'),
      fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0001', '\ud83d\ude00', '\u00e9'),
    )
    .map(([path, odd]) => {
      const base = sale({ id: `FZ-U-${process.pid}-${++counter}` });
      const value = path === 'transaction.customer.value' ? { type: 'membershipId', value: `MBR-${odd}1` } : `${path}-${counter}-${odd}`;
      const body = JSON.stringify(
        mutateJson(base, path === 'transaction.customer.value' ? ['transaction', 'customer'] : path.split('.'), 'set', value),
      );
      return { body, headers: headersFor(body), kind: 'odd-text' };
    }),
  fc.constantFrom('utf16le', 'bom').map((encoding) => {
    const text = JSON.stringify(sale({ id: `FZ-E-${process.pid}-${++counter}` }));
    const body = encoding === 'bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : Buffer.from(text, 'utf16le');
    return { body, headers: headersFor(body), kind: `encoding:${encoding}` };
  }),
);

/**
 * 10,000 generated requests (fast-check, fixed seed) against a running gateway over real sockets,
 * on each dialect: no 5xx, every non-2xx is the spec's Error body, and afterwards the ledger holds
 * exactly the points the 200 answers acknowledged.
 */
describe.each(testDialects())('HTTP-level fuzzing against a running gateway ($name)', ({ name }) => {
  let gw: GatewayFixture;
  let pool: Pool;
  beforeAll(async () => {
    gw = await openGateway({ dialect: name });
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    pool = new Pool(`http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`, { connections: 16 });
  });
  afterAll(async () => {
    await pool.close();
    await gw.close();
  });

  it(`${REQUESTS.toLocaleString('en-US')} requests: 0 × 5xx, every refusal an Error body, the ledger equals the acknowledged earns`, async () => {
    const earnedBefore = Number(
      (
        await sql<{ total: number }>`select coalesce(sum(points), 0) as total from ledger_entries where kind = 'earn'`.execute(
          gw.database.db,
        )
      ).rows[0]!.total,
    );
    // FUZZ_SEED=N explores other requests (the fixed seed keeps CI repeatable).
    const shots = fc.sample(shot, { numRuns: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? 20261125) });
    const statuses = new Map<number, number>();
    let acknowledged = 0;
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < shots.length; i = next++) {
        const { body, headers, kind } = shots[i]!;
        const response = await pool.request({ method: 'POST', path: '/webhooks/generic', headers, body });
        const text = await response.body.text();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode >= 500) problems.push(`${kind}: ${response.statusCode} ${text.slice(0, 200)}`);
        if (response.statusCode === 200) {
          const result = WebhookResult.safeParse(JSON.parse(text));
          if (!result.success) problems.push(`${kind}: 200 not a WebhookResult: ${text.slice(0, 200)}`);
          else if (result.data.status === 'processed') acknowledged += result.data.pointsEarned;
          continue;
        }
        const error = ErrorBody.safeParse(
          (() => {
            try {
              return JSON.parse(text);
            } catch {
              return null;
            }
          })(),
        );
        if (!error.success) problems.push(`${kind}: ${response.statusCode} not an Error body: ${text.slice(0, 200)}`);
        else if (error.data.statusCode !== response.statusCode || error.data.requestId !== response.headers['x-request-id']) {
          problems.push(`${kind}: ${response.statusCode} Error body disagrees: ${text.slice(0, 200)}`);
        } else if (response.statusCode === 422 && !error.data.fields?.length) problems.push(`${kind}: 422 without fields`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(problems.slice(0, 10)).toEqual([]);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(REQUESTS / 10);
    const earnedAfter = Number(
      (
        await sql<{ total: number }>`select coalesce(sum(points), 0) as total from ledger_entries where kind = 'earn'`.execute(
          gw.database.db,
        )
      ).rows[0]!.total,
    );
    expect(earnedAfter - earnedBefore).toBe(acknowledged);
  }, 300_000);
});
