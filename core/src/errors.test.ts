import { describe, expect, it } from 'vitest';
import { ERRORS, EngineError, GatewayError, type ErrorCode } from './errors.js';

// docs/errors.md and docs/engine-service.md are checked against the table by tools/src/error-table.test.ts.
describe('the error table', () => {
  it('uses the spec codes for authentication failures', () => {
    for (const code of ['bad_signature', 'stale_timestamp', 'unknown_connection'] as ErrorCode[]) {
      expect(ERRORS[code].status).toBe(401);
    }
    expect(ERRORS.store_mismatch.status).toBe(400);
    expect(ERRORS.validation_failed.status).toBe(422);
  });

  it("uses only the spec's statuses for a malformed body and for the earn webhook's retryable fault", () => {
    expect(ERRORS.unsupported_media_type.status).toBe(400);
    expect(ERRORS.engine_unavailable_retry.status).toBe(500);
  });

  it("sends the table's headers with its code; an error may add or override headers", () => {
    expect(new GatewayError('engine_unavailable_retry').headers).toEqual({ 'retry-after': '1' });
    expect(new GatewayError('engine_unavailable_retry', { headers: { 'retry-after': '5', 'x-a': 'b' } }).headers).toEqual({
      'retry-after': '5',
      'x-a': 'b',
    });
    expect(new GatewayError('store_mismatch').headers).toBeUndefined();
    expect(new GatewayError('rate_limited', { headers: { 'retry-after': '7' } }).headers).toEqual({ 'retry-after': '7' });
  });

  it('builds errors with status, code and default or custom message', () => {
    const error = new GatewayError('store_mismatch');
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(ERRORS.store_mismatch.message);
    const engine = new EngineError('insufficient_points', 'Needs 500 points; customer has 320.');
    expect(engine).toBeInstanceOf(GatewayError);
    expect(engine.statusCode).toBe(400);
    expect(engine.message).toBe('Needs 500 points; customer has 320.');
  });
});
