import type { FastifyBaseLogger } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';

type Level = 'info' | 'debug';

/** Writes one request line: `fields` (undefined ones left out) and the message, at `level`. */
export type RequestLineWriter = (level: Level, fields: Record<string, unknown>, msg: string) => void;

/**
 * The request line's writer for `logger`. A logger as the gateway makes it for the request line
 * (`pino({ level }, destination)`: no mixin, hooks, redaction, serializer of the line's fields or
 * log formatter) gets the same line pino writes, built from one `JSON.stringify` of the fields:
 * pino's own loop escapes and joins each key and value into strings of their own. Measured on the
 * earn path (V8's sampling heap profiler): the request line's step allocated 4.4 KiB a request,
 * 3.3 of them in that loop, and allocates 2.3 KiB now, its object and strings included; the
 * event loop's whole request 46 KiB (docs/benchmarks.md, "Against the handler a team would
 * write"). Any other logger is called as usual. The prefix (level, time, bindings) and the end
 * are pino's own, read from the logger.
 */
export function requestLineWriter(logger: FastifyBaseLogger): RequestLineWriter {
  const plain = plainPino(logger);
  if (!plain) return (level, fields, msg) => logger[level](fields, msg);
  const { stream, levelPrefix, time, chindings, end, messageKey } = plain;
  const pinoLogger = logger as unknown as Logger;
  return (level, fields, msg) => {
    if (!pinoLogger.isLevelEnabled(level)) return;
    const body = JSON.stringify(fields);
    const own = body.length > 2 ? `,${body.slice(1, -1)}` : '';
    stream.write(`${levelPrefix(level)}${time()}${chindings}${own},${messageKey}:${JSON.stringify(msg)}${end}`);
  };
}

interface PlainPino {
  stream: DestinationStream;
  levelPrefix: (level: Level) => string;
  time: () => string;
  chindings: string;
  end: string;
  messageKey: string;
}

/** What writing pino's line needs from `logger`, when it is a pino logger that does nothing else to a line. */
function plainPino(logger: FastifyBaseLogger): PlainPino | undefined {
  const s = pino.symbols;
  const own = logger as unknown as Record<symbol, unknown>;
  const stream = own[s.streamSym] as (DestinationStream & Record<symbol, unknown>) | undefined;
  const formatters = own[s.formattersSym] as { log?: unknown } | undefined;
  const hooks = own[s.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const stringifiers = own[s.stringifiersSym] as Record<string | symbol, unknown> | undefined;
  const serializers = own[s.serializersSym] as Record<string, unknown> | undefined;
  const lsCache = own[s.lsCacheSym] as Record<number, string> | undefined;
  const time = own[s.timeSym] as (() => string) | undefined;
  const chindings = own[s.chindingsSym];
  const end = own[s.endSym];
  const messageKey = own[s.messageKeySym];
  // A child's message prefix (pino's `msgPrefix`); not in pino's declared symbols.
  const msgPrefixSym = (s as unknown as Partial<Record<string, symbol>>).msgPrefixSym;
  const plain =
    stream !== undefined &&
    typeof stream.write === 'function' &&
    !stream[s.needsMetadataGsym] &&
    own[s.mixinSym] === undefined &&
    own[s.nestedKeySym] == null &&
    !(msgPrefixSym !== undefined && own[msgPrefixSym]) &&
    formatters !== undefined &&
    formatters.log === undefined &&
    hooks !== undefined &&
    hooks.logMethod === undefined &&
    hooks.streamWrite === undefined &&
    stringifiers !== undefined &&
    Reflect.ownKeys(stringifiers).length === 0 &&
    serializers !== undefined &&
    Object.keys(serializers).every((key) => key === 'err') &&
    lsCache !== undefined &&
    typeof time === 'function' &&
    typeof chindings === 'string' &&
    typeof end === 'string' &&
    typeof messageKey === 'string';
  if (!plain) return undefined;
  const values = (logger as unknown as Logger).levels.values;
  return {
    stream,
    levelPrefix: (level) => lsCache[values[level]!]!,
    time,
    chindings,
    end,
    messageKey: JSON.stringify(messageKey),
  };
}
