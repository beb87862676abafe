import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestId, requestIdGenerated } from './request-id.js';

const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as IncomingMessage;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keeps the caller's X-Request-ID when it is plain enough to quote, grep and put in a URL", () => {
    expect(requestId(request({ 'x-request-id': 'till-7:2026-11-25.0042' }))).toBe('till-7:2026-11-25.0042');
  });

  it('generates an RFC 9562 UUIDv7 otherwise: unique, and ordered by time so indexes on it are appended to', () => {
    for (const given of [undefined, 'has space', 'a/b', '<script>', 'x'.repeat(129)]) {
      expect(requestId(request(given === undefined ? {} : { 'x-request-id': given }))).toMatch(UUID_V7);
    }
    const ids: string[] = [];
    let at = Date.now();
    while (Date.now() < at + 5) ids.push(requestId(request()));
    expect(new Set(ids).size).toBe(ids.length);
    const millis = ids.map((id) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
    at = Date.now();
    expect(millis.every((ms, i) => i === 0 || ms >= millis[i - 1]!)).toBe(true);
    expect(Math.abs(millis.at(-1)! - at)).toBeLessThan(1_000);
  });

  it("generates it from the app's clock (whole milliseconds), and says which ids it generated", () => {
    const generated = requestId(request(), () => 1_764_300_000_123.9);
    expect(parseInt(generated.slice(0, 8) + generated.slice(9, 13), 16)).toBe(1_764_300_000_123);
    expect(requestIdGenerated({ id: generated, headers: {} })).toBe(true);
    expect(requestIdGenerated({ id: generated, headers: { 'x-request-id': 'has space' } })).toBe(true);
    expect(requestIdGenerated({ id: 'till-7', headers: { 'x-request-id': 'till-7' } })).toBe(false);
  });
});
