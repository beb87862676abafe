import { GatewayError, MAX_FIELD_ERRORS } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { renderError } from './error-body.js';

describe('renderError', () => {
  it('renders a coded error with its fields as they are', () => {
    const fields = [{ path: 'items[0].externalId', message: 'duplicate externalId' }];
    const { body } = renderError(new GatewayError('validation_failed', { message: 'Duplicate items.', fields }), 'r-1');
    expect(body).toEqual({ statusCode: 422, code: 'validation_failed', message: 'Duplicate items.', fields, requestId: 'r-1' });
  });

  it(`lists at most ${MAX_FIELD_ERRORS} fields of any error, saying how many there are`, () => {
    const fields = Array.from({ length: 2500 }, (_, i) => ({ path: `items[${i}].externalId`, message: 'duplicate externalId' }));
    const { body } = renderError(new GatewayError('validation_failed', { message: 'Duplicate items.', fields }), 'r-2');
    expect(body.fields).toEqual(fields.slice(0, MAX_FIELD_ERRORS));
    expect(body.message).toBe(`Duplicate items (2,500 problems; fields lists the first ${MAX_FIELD_ERRORS}).`);
  });
});
