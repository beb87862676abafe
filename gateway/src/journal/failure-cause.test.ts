import { EngineError, EngineUnavailableError, GatewayError, VendorApiError } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { EngineCallFailure } from '../engine-client/index.js';
import { engineCallFailure } from './engine-call-cause.js';
import { failureCauseOf } from './failure-cause-of.js';
import { noteFailure } from './failure-cause.js';
import { vendorCallFailure } from './vendor-call-failure.js';
import { vendorCallTarget } from './vendor-call-target.js';

describe('vendorCallTarget: a vendor API call as support may read it', () => {
  it.each([
    [
      'https://api.clover.com/v3/merchants/XYZVJT2ZRRRSC/orders/ABCDEFGHJKMNP?expand=lineItems,payments',
      'api.clover.com/v3/merchants/{id}/orders/{id}',
    ],
    ['https://bean-there.myshopify.com/admin/api/2024-10/graphql.json', 'bean-there.myshopify.com/admin/api/2024-10/graphql.json'],
    ['https://connect.squareup.com/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY', 'connect.squareup.com/v2/orders/{id}'],
    ['https://ck_key:cs_secret@shop.example/wp-json/wc/v3/orders/727?consumer_secret=cs_x', 'shop.example/wp-json/wc/v3/orders/{id}'],
    ['http://127.0.0.1:8080/v2/customers/J%C3%B6rg%2F1', '127.0.0.1:8080/v2/customers/{id}'],
    ['https://erp.example/', 'erp.example'],
    ['not a url', 'an unreadable URL'],
  ])('%s → %s', (url, target) => {
    expect(vendorCallTarget(url)).toBe(target);
  });
});

describe('vendorCallFailure: what a failed vendor call says', () => {
  const url = 'https://api.clover.com/v3/merchants/XYZ1/orders/O1?access_token=secret';
  const failed = (error: VendorApiError, attempts?: number) => {
    if (attempts !== undefined) error.attempts = attempts;
    return vendorCallFailure(error, 12.3);
  };

  it('names the call without its ids or query, says the status, the wait asked for, the attempts', () => {
    const cause = failed(new VendorApiError(429, url, 'HTTP 429 from api.clover.com', 20_000), 1);
    expect(cause).toEqual({
      call: 'vendor API api.clover.com/v3/merchants/{id}/orders/{id}',
      what: 'HTTP 429 (Retry-After 20 s)',
      ms: 12.3,
    });
    expect(JSON.stringify(cause)).not.toMatch(/secret|XYZ1|O1/);
    expect(failed(new VendorApiError(503, url, 'HTTP 503 from api.clover.com'), 2).what).toBe('HTTP 503 after 2 attempts');
    expect(failed(new VendorApiError(401, url, 'HTTP 401 from api.clover.com')).what).toBe(
      "HTTP 401 (check this connection's credentials)",
    );
  });

  it('no HTTP answer is one reason whatever the port did; an unreadable answer, a redirect and the outbound policy say theirs', () => {
    expect(failed(new VendorApiError(0, url, 'could not connect to api.clover.com'), 2).what).toBe(
      'no HTTP answer (could not connect) after 2 attempts',
    );
    expect(failed(new VendorApiError(0, url, "no time left to ask the vendor API within this request's deadline")).what).toBe(
      "no time left to ask the vendor API within this request's deadline",
    );
    expect(failed(new VendorApiError(200, url, 'invalid JSON from api.clover.com')).what).toBe(
      'unreadable answer: invalid JSON from api.clover.com',
    );
    expect(failed(new VendorApiError(302, url, 'HTTP 302 from api.clover.com: redirect to elsewhere.example not followed')).what).toMatch(
      /^HTTP 302 from api\.clover\.com: redirect to elsewhere\.example not followed/,
    );
    expect(failed(new VendorApiError(400, url, 'vendor API URL refused by the outbound policy: it is a private address')).what).toBe(
      'vendor API URL refused by the outbound policy: it is a private address',
    );
  });
});

describe('engineCallFailure: what a failed engine call says', () => {
  const remote = (kind: ConstructorParameters<typeof EngineCallFailure>[0], message: string) =>
    new EngineUnavailableError(undefined, new EngineCallFailure(kind, message));

  it.each([
    [
      remote('connection', 'POST /v1/earn: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:4000'),
      'connection failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:4000',
    ],
    [
      remote('timeout', 'POST /v1/earn: no answer within 2000 ms (engine budget 1900 ms)'),
      'timed out: no answer within 2000 ms (engine budget 1900 ms)',
    ],
    [
      remote('unavailable_status', 'POST /v1/earn: the engine service answered 503 engine_unavailable'),
      'unavailable: the engine service answered 503 engine_unavailable',
    ],
    [
      remote('bad_response', 'POST /v1/earn: the engine service answered 200 without a JSON body'),
      'unreadable answer: the engine service answered 200 without a JSON body',
    ],
    [
      remote('circuit_open', 'POST /v1/earn: circuit open after 5 consecutive failures; failing fast'),
      'circuit breaker open: circuit open after 5 consecutive failures; failing fast',
    ],
    [
      new EngineUnavailableError(undefined, new Error("the loyalty engine's worker thread stopped: exit code 1")),
      "unavailable: the loyalty engine's worker thread stopped: exit code 1",
    ],
    [
      new EngineUnavailableError('The loyalty engine cannot reach its database right now.', new Error('password authentication failed')),
      'unavailable: The loyalty engine cannot reach its database right now.',
    ],
    [
      new EngineError('internal_error', 'The loyalty engine refused the request (POST /v1/earn: 401 without a code).'),
      'failed: The loyalty engine refused the request (POST /v1/earn: 401 without a code).',
    ],
    [new TypeError('secret-looking detail'), "failed: TypeError (the gateway's log has the details)"],
  ])('%s', (error, what) => {
    expect(engineCallFailure('earn', error, 5)).toEqual({ call: 'engine earn', what, ms: 5 });
  });

  it('an answer of the engine (a 4xx EngineError) is no failure: nothing is noted', () => {
    expect(engineCallFailure('reverse', new EngineError('refund_id_reused'), 5)).toBeNull();
  });
});

describe('failureCauseOf: why a request answered 5xx', () => {
  it('the cause noted where the failure was raised, through the errors that wrap it', () => {
    const raised = noteFailure(new VendorApiError(503, 'https://x.example/a/1', 'HTTP 503 from x.example'), {
      call: 'vendor API x.example/a/{id}',
      what: 'HTTP 503',
      ms: 40,
    });
    const thrown = new GatewayError('vendor_api_unavailable', { cause: raised });
    expect(failureCauseOf(thrown, 'vendor_api_unavailable')).toEqual({ call: 'vendor API x.example/a/{id}', what: 'HTTP 503', ms: 40 });
  });

  it('else what the error chain tells, else the gateway itself; an unexpected error by its name only', () => {
    const engine = new GatewayError('engine_unavailable_retry', { cause: new EngineUnavailableError('engine unreachable') });
    expect(failureCauseOf(engine, 'engine_unavailable_retry')).toEqual({
      call: 'engine',
      what: 'unavailable: engine unreachable',
      ms: null,
    });
    expect(failureCauseOf(new Error('connection terminated'), 'service_unavailable')).toMatchObject({ call: 'gateway database' });
    expect(failureCauseOf(new GatewayError('shutting_down'), 'shutting_down')).toMatchObject({
      call: 'gateway',
      what: expect.stringMatching(/shutting down/),
    });
    const unexpected = failureCauseOf(new RangeError('select * from members where email = x'), 'internal_error');
    expect(unexpected).toEqual({
      call: 'gateway',
      what: "internal_error: RangeError; the gateway's log has the details under this request id",
      ms: null,
    });
  });
});
