import { AuthScheme, formatPath, secretsFromSettings, type AnyAdapter, type FieldError } from '@loyalty-gateway/core';
import type { z } from 'zod';

/** A featured vendor's provider settings, read once per settings version. */
export interface ProviderConfig {
  /** The adapter's own settings, parsed by its schema (defaults applied). */
  settings: Record<string, unknown>;
  /** The effective scheme: the operator's `settings.auth` override, else the adapter's default. */
  scheme: AuthScheme;
  /** Request-level secrets of the scheme, or why there are none ('per-connection', 'none' for mTLS). */
  secrets: string[] | 'per-connection' | 'none';
  /** Square's `notificationUrl` (or any adapter's): the URL a `url+body` HMAC covers. */
  notificationUrl: string | undefined;
}

export type ProviderSettingsResult = { ok: true; config: ProviderConfig } | { ok: false; fields: FieldError[] };

/** Zod issues → field errors under `prefix`, unknown keys named one by one. */
export const issuesAt = (prefix: PropertyKey[], error: z.ZodError): FieldError[] =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...prefix, ...issue.path, key]), message: 'unknown field' }))
      : [{ path: formatPath([...prefix, ...issue.path]), message: issue.message }],
  );

const settingsKeyOf = (scheme: AuthScheme): string | undefined =>
  scheme.kind !== 'mtls' && scheme.secret.from === 'settings' ? scheme.secret.key : undefined;

/**
 * Raw provider settings (as stored, decrypted) → what the featured door needs. The door owns two
 * keys the adapter's schema never sees: `auth` (an operator's scheme override, core `AuthScheme`)
 * and the override's own secret key when it differs from the adapter's default one (so a strict
 * adapter schema does not refuse it). Everything else is validated by the adapter's schema.
 */
export function parseProviderSettings(adapter: AnyAdapter, raw: Record<string, unknown>): ProviderSettingsResult {
  const { auth, ...rest } = raw;
  let scheme = adapter.defaultAuth;
  if (auth !== undefined) {
    const parsed = AuthScheme.safeParse(auth);
    if (!parsed.success) return { ok: false, fields: issuesAt(['auth'], parsed.error) };
    scheme = parsed.data;
    const overrideKey = settingsKeyOf(scheme);
    if (overrideKey !== undefined && overrideKey !== settingsKeyOf(adapter.defaultAuth)) delete rest[overrideKey];
  }
  const settings = adapter.settings.safeParse(rest);
  if (!settings.success) return { ok: false, fields: issuesAt([], settings.error) };
  const notificationUrl = typeof raw.notificationUrl === 'string' ? raw.notificationUrl : undefined;
  return {
    ok: true,
    config: {
      settings: settings.data as Record<string, unknown>,
      scheme,
      secrets: secretsFromSettings(scheme, raw),
      notificationUrl,
    },
  };
}
