import { describe, expect, it } from 'vitest';
import { isConnectionLoss } from './connection-loss.js';

describe('isConnectionLoss', () => {
  it.each([
    ['a server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ["pg's ended client", new Error('Connection terminated unexpectedly')],
    ['one wrapped in a cause', new Error('query failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) })],
  ])('%s is a connection loss', (_label, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain error', new Error('boom')],
    ['not an error', 'text'],
  ])('%s is not', (_label, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });
});
