import { createHash } from 'node:crypto';
import { bearerToken } from './admin-auth.js';

/**
 * Who an audited admin action names (a replay's `replayedBy`): `admin:` + the first 12 hex
 * digits of the SHA-256 of the admin token, as documented, so an operator can tell which token
 * acted (`printf %s "$TOKEN" | sha256sum`) without the journal holding it. Of the token, not of
 * the whole header: `Bearer x` and `bearer  x` are the same token. Entries written before this
 * hashed the header (`Bearer <token>`).
 */
export function adminActor(authorization: unknown): string {
  return `admin:${createHash('sha256')
    .update(bearerToken(authorization) ?? '')
    .digest('hex')
    .slice(0, 12)}`;
}
