import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compare two strings in constant time, whatever their lengths: both sides are hashed first so
 * timingSafeEqual always sees equal-length inputs and the length of the secret does not leak.
 */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && Buffer.byteLength(a) === Buffer.byteLength(b);
}

/** True when `given` equals any of `secrets`; every secret is compared, so timing shows none. */
export function matchesAny(secrets: readonly string[], given: string): boolean {
  let ok = false;
  for (const secret of secrets) if (constantTimeEqual(secret, given)) ok = true;
  return ok;
}
