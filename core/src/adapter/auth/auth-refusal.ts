import { GatewayError } from '../../errors.js';
import type { AuthFailure } from './scheme.js';

const MESSAGES: Record<AuthFailure, string> = {
  missing_credentials: 'The vendor signature or token is missing, or none is configured for this provider.',
  bad_signature: 'The vendor signature or token does not match the request.',
  stale_timestamp: 'The vendor timestamp is missing or outside the accepted window. Synchronise the clock.',
  untrusted_certificate: 'The client certificate is missing or not trusted for this provider.',
};

/**
 * A featured scheme's failure as the spec's 401 codes: a stale timestamp is `stale_timestamp`; a
 * bad or missing signature, token or client certificate is `bad_signature` (the spec's code for
 * "credentials do not prove who you are"; the message says which). `detail` is for the log only.
 */
export class AuthRefusal extends GatewayError {
  constructor(
    readonly reason: AuthFailure,
    readonly detail: string,
  ) {
    super(reason === 'stale_timestamp' ? 'stale_timestamp' : 'bad_signature', { message: MESSAGES[reason] });
    this.name = 'AuthRefusal';
  }
}
