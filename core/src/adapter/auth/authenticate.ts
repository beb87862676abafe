import type { NativeRequest } from '../native-request.js';
import type { AuthCheck, AuthScheme } from './scheme.js';
import { verifyHmac } from './verify-hmac.js';
import { verifyMtls } from './verify-mtls.js';
import { verifyStaticHeader } from './verify-static-header.js';

/** Run a provider's configured scheme. `secrets` are the resolved values of `scheme.secret`. */
export function authenticate(scheme: AuthScheme, secrets: readonly string[], request: NativeRequest, now: Date): AuthCheck {
  switch (scheme.kind) {
    case 'hmac':
      return verifyHmac(scheme, secrets, request, Math.floor(now.getTime() / 1000));
    case 'static-header':
      return verifyStaticHeader(scheme, secrets, request);
    case 'mtls':
      return verifyMtls(scheme, request, now);
  }
}

/** The secret values a scheme needs from provider settings (a string or a list of them). */
export function secretsFromSettings(scheme: AuthScheme, settings: Record<string, unknown>): string[] | 'per-connection' | 'none' {
  if (scheme.kind === 'mtls') return 'none';
  if (scheme.secret.from === 'connection') return 'per-connection';
  const value = settings[scheme.secret.key];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}
