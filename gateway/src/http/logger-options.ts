import { traceLogFields, tracingOn } from '@loyalty-gateway/core';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Never logged: signatures, credentials, secrets wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'req.headers["x-service-signature"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-service-signature"]',
  'headers.authorization',
  'secret',
  'secrets',
  'masterKey',
  'credentials',
  '*.secret',
  '*.secrets',
  '*.masterKey',
  '*.credentials',
  '*.*.secret',
  '*.*.secrets',
];

/** pino options for Fastify's logger (one JSON line per event on stdout). */
export function loggerOptions(level: string): LoggerOptions {
  const options: LoggerOptions = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  // With tracing on (OTEL_*), each line written while a span is active names it: trace_id, span_id.
  if (tracingOn()) options.mixin = traceLogFields;
  return options;
}

/**
 * How many bytes of log lines stdout may hold unwritten (a stalled log collector) before new lines
 * are dropped and counted: ~28,000 request lines.
 */
export const LOG_BUFFER_BYTES = 8 * 1024 * 1024;

/** Lines are written once this many bytes wait (~13 request lines), or LOG_FLUSH_MS after the first. */
export const LOG_WRITE_BYTES = 4096;
export const LOG_FLUSH_MS = 100;
/**
 * How long the last, synchronous flush (at exit) waits for a reader that takes nothing (a full pipe
 * nobody reads) before the lines still waiting are given up, so that a stalled log collector can
 * never keep the process from exiting.
 */
export const LOG_EXIT_FLUSH_MS = 2_000;

/**
 * Where the gateway logs by default: stdout, written asynchronously in chunks of LOG_WRITE_BYTES
 * (or what waits every LOG_FLUSH_MS, so an idle gateway's line is out within 0.1 s). Under load
 * that is one write system call per ~13 request lines instead of one per line, none of them on
 * the event loop; on this 2-core VM each write also woke another thread. Measured with the
 * PostgreSQL round of `npm run bench`, alternated: the main threads' CPU per earn 208 / 218 µs
 * with one synchronous write per line, 206 / 201 asynchronous line by line, 181 / 198 in chunks
 * (docs/benchmarks.md). pino flushes what is left synchronously when the process exits, by
 * `process.exit` or an uncaught error as well; only a kill -9 or a V8 abort loses the last lines —
 * or a reader that takes nothing for LOG_EXIT_FLUSH_MS at exit, which the process does not wait out.
 * When the reader stalls, the gateway keeps answering: lines queue up to `maxLength` bytes, then
 * are dropped and counted (`dropped`, gateway_log_dropped_lines_total) instead of blocking every
 * request on a full pipe.
 *
 * The chunks hold each line's bytes (sonic-boom's `buffer` content mode), not strings: in its
 * utf8 mode a chunk is a string grown by `+=`, and measuring it for every new line
 * (`Buffer.byteLength`) flattened the whole chunk again, up to 16 KiB copied per line: 6.8 KiB
 * allocated per request line under the earn path's load, a seventh of all the event loop
 * allocated per request (docs/benchmarks.md). A line is now encoded once, and a chunk copied once
 * when it is written.
 */
export function logDestination(
  options: { fd?: number; maxLength?: number } = {},
): ReturnType<typeof pino.destination> & { dropped(): number } {
  // While the last flush runs (synchronously: at exit, or after a fatal line), the time it may still
  // wait for a reader that takes nothing; null while the gateway runs (asynchronous writes retry
  // on a timer and are bounded by maxLength).
  let flushSyncUntil: number | null = null;
  const stream = pino.destination({
    dest: options.fd ?? 1,
    sync: false,
    minLength: LOG_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    maxLength: options.maxLength ?? LOG_BUFFER_BYTES,
    contentMode: 'buffer',
    // sonic-boom's default retries a full pipe every 100 ms for ever, its synchronous flush
    // included: a process whose stdout nobody read never exited (not even by its 10 s timer:
    // the flush holds the event loop).
    retryEAGAIN: () => flushSyncUntil === null || Date.now() < flushSyncUntil,
  });
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    flushSyncUntil = Date.now() + LOG_EXIT_FLUSH_MS;
    try {
      flushSync();
    } catch (error) {
      // Given up (the reader took nothing for LOG_EXIT_FLUSH_MS): what waits is lost, as a kill would lose it.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' && (error as NodeJS.ErrnoException).code !== 'EBUSY') throw error;
    } finally {
      flushSyncUntil = null;
    }
  };
  // pino writes each line as a string; in buffer mode sonic-boom takes bytes (its types know only strings).
  const writeBytes = stream.write.bind(stream) as unknown as (data: Buffer) => boolean;
  stream.write = (line: string | Buffer) => writeBytes(typeof line === 'string' ? Buffer.from(line, 'utf8') : line);
  let dropped = 0;
  stream.on('drop', () => {
    dropped += 1;
  });
  return Object.assign(stream, { dropped: () => dropped });
}

/** The gateway's two loggers, writing to one destination (stdout unless given). */
export interface GatewayLogging {
  /** Everything: start-up, errors, operator actions. Redacts REDACTED_PATHS in every object. */
  logger: Logger;
  /**
   * The one line per request (RequestLogController). It is assembled from an allowlist of fields
   * (method, url, status, ids, outcome; see request-log.ts), none of which can hold a secret, so
   * it skips the redaction pass — measured at ~16 µs a line with the wildcard paths, about a tenth
   * of a request's CPU on the earn path. Error lines still go through `logger`.
   */
  requestLine: Logger;
  /** Lines dropped because the destination could not keep up (logDestination's bound), since start. */
  droppedLines(): number;
}

export function createGatewayLogging(
  level: string,
  destination: DestinationStream & { dropped?(): number } = logDestination(),
): GatewayLogging {
  return {
    logger: pino(loggerOptions(level), destination),
    requestLine: pino({ level }, destination),
    droppedLines: () => destination.dropped?.() ?? 0,
  };
}
