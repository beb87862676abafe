/**
 * Whether an error means the database could not be reached or dropped the connection, as opposed
 * to a statement that failed: a server shutting down or restarting (SQLSTATE 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now), a connection exception (class 08), or the
 * socket itself refused, reset or closed. Such a failure is the database's weather: the caller
 * answers a retryable "unavailable" and the pool reconnects by itself on its next checkout.
 */
export function isConnectionLoss(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

const CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

// pg's own wording when a client's socket ends under it (no SQLSTATE then).
const MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error/,
  /^terminating connection due to/,
  /^the database system is (starting up|shutting down)/,
];
