import type { LoggerOptions } from 'pino';

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
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
