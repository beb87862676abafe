import type { NativeRequest } from '../native-request.js';
import { matchesAny } from './constant-time.js';
import type { AuthCheck, StaticHeaderScheme } from './scheme.js';

/** A configured header must equal one of the tokens (constant time). */
export function verifyStaticHeader(scheme: StaticHeaderScheme, tokens: readonly string[], request: NativeRequest): AuthCheck {
  const header = request.headers[scheme.header];
  if (!header) return { ok: false, reason: 'missing_credentials', detail: `missing ${scheme.header} header` };
  if (tokens.length === 0) return { ok: false, reason: 'missing_credentials', detail: 'no token configured for this provider' };
  if (!header.startsWith(scheme.prefix)) return { ok: false, reason: 'bad_signature', detail: `expected prefix ${scheme.prefix}` };
  return matchesAny(tokens, header.slice(scheme.prefix.length))
    ? { ok: true }
    : { ok: false, reason: 'bad_signature', detail: 'token does not match' };
}
