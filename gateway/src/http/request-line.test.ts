import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createGatewayLogging } from './logger-options.js';
import { requestLineWriter } from './request-line.js';

/** A pino logger over a destination that keeps each line written. */
function logged(options: pino.LoggerOptions = {}) {
  const lines: string[] = [];
  const logger = pino({ level: 'info', ...options }, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

const FIELDS = {
  reqId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  method: 'POST',
  url: '/webhooks/generic?x="1"&y=\\2',
  statusCode: 200,
  remoteAddress: '127.0.0.1',
  responseTime: 1.25,
  vendor: 'bench-pos',
  store: 'store \u0001 "tab"\there',
  connectionId: undefined,
  eventType: 'sale.completed',
  transactionId: 'T-ü-€-😀',
  refundId: undefined,
  outcome: 'processed',
  nan: Number.NaN,
  long: 'x'.repeat(300),
};

describe('the request line writer', () => {
  it("writes pino's own line for a plain pino logger, byte for byte but the time", () => {
    const ours = logged();
    const theirs = logged();
    requestLineWriter(ours.logger)('info', FIELDS, 'request completed');
    theirs.logger.info(FIELDS, 'request completed');
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    const parsed = JSON.parse(ours.lines[0]!) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 30, pid: process.pid, msg: 'request completed', store: FIELDS.store, nan: null });
    expect(parsed).not.toHaveProperty('connectionId');
    expect(ours.lines[0]!.endsWith('}\n')).toBe(true);
  });

  it("the gateway's own request-line logger takes that path (pino's info is never called); another logger goes through it", () => {
    const written: string[] = [];
    const { requestLine } = createGatewayLogging('info', { write: (line: string) => written.push(line) });
    const info = vi.spyOn(requestLine, 'info');
    requestLineWriter(requestLine)('info', { url: '/webhooks/generic' }, 'request completed');
    expect(info).not.toHaveBeenCalled();
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 30, url: '/webhooks/generic', msg: 'request completed' });
    const mixed = logged({ mixin: () => ({ trace_id: 'abc' }) });
    const mixedInfo = vi.spyOn(mixed.logger, 'info');
    requestLineWriter(mixed.logger)('info', { url: '/x' }, 'request completed');
    expect(mixedInfo).toHaveBeenCalledTimes(1);
  });

  it('keeps the logger’s level: debug lines only when debug is on, at level 20', () => {
    const info = logged();
    requestLineWriter(info.logger)('debug', FIELDS, 'request completed');
    expect(info.lines).toEqual([]);
    const debug = logged({ level: 'debug' });
    requestLineWriter(debug.logger)('debug', { url: '/health' }, 'request completed');
    expect(JSON.parse(debug.lines[0]!)).toMatchObject({ level: 20, url: '/health', msg: 'request completed' });
    // A level changed at run time is read at each line.
    debug.logger.level = 'warn';
    requestLineWriter(debug.logger)('info', { url: '/x' }, 'request completed');
    expect(debug.lines).toHaveLength(1);
  });

  it('a line whose every field is undefined is still one JSON object', () => {
    const { logger, lines } = logged();
    requestLineWriter(logger)('info', { a: undefined }, 'request completed');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request completed' });
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('a');
  });

  it('a pino logger that does more to a line (mixin, redaction, formatter, custom base) is called as usual', () => {
    const cases: pino.LoggerOptions[] = [
      { mixin: () => ({ trace_id: 'abc' }) },
      { redact: ['store'] },
      { formatters: { log: (object) => ({ ...object, formatted: true }) } },
      { messageKey: 'message', base: { service: 'gw' } },
    ];
    for (const options of cases) {
      const ours = logged(options);
      const theirs = logged(options);
      requestLineWriter(ours.logger)('info', FIELDS, 'request completed');
      theirs.logger.info(FIELDS, 'request completed');
      expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    }
    // A child with a message prefix (pino's msgPrefix) too.
    const prefixed = logged();
    const child = prefixed.logger.child({}, { msgPrefix: '[gw] ' });
    requestLineWriter(child)('info', { url: '/x' }, 'request completed');
    expect(JSON.parse(prefixed.lines[0]!)).toMatchObject({ msg: '[gw] request completed' });
    const mixed = logged(cases[0]);
    requestLineWriter(mixed.logger)('info', { url: '/x' }, 'request completed');
    expect(JSON.parse(mixed.lines[0]!)).toMatchObject({ trace_id: 'abc', url: '/x' });
  });
});
