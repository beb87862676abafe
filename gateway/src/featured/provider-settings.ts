import { AuthScheme, formatPath, secretsFromSettings, type AnyAdapter, type FieldError } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { isValidCron } from '../scheduler/cron-clock.js';

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
  /** The operator's `catalogSchedule` (a cron expression), replacing the adapter's default schedule; undefined: the default. */
  catalogSchedule: string | undefined;
}

/** The warning logged (with `vendor` and `ignoredKeys`) wherever stored settings are read with keys left out. */
export const IGNORED_SETTINGS_KEYS =
  'stored provider settings have keys this adapter does not know: they are ignored (PUT /admin/vendors/:slug/settings to remove them)';

/** `ignoredKeys`: top-level keys the adapter's schema does not know, left out (with `unknownKeys: 'ignore'`), for the caller to log. */
export type ProviderSettingsResult = { ok: true; config: ProviderConfig; ignoredKeys: string[] } | { ok: false; fields: FieldError[] };

/** Zod issues → field errors under `prefix`, unknown keys named one by one. */
export const issuesAt = (prefix: PropertyKey[], error: z.ZodError): FieldError[] =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...prefix, ...issue.path, key]), message: 'unknown field' }))
      : [{ path: formatPath([...prefix, ...issue.path]), message: issue.message }],
  );

const settingsKeyOf = (scheme: AuthScheme): string | undefined =>
  scheme.kind !== 'mtls' && scheme.secret.from === 'settings' ? scheme.secret.key : undefined;

/** Where the gateway can check settings against its own configuration and their origin (admin writes, start-up). */
export interface ProviderSettingsContext {
  /** Whether this gateway runs its own HTTPS listener (GATEWAY_TLS_PORT): mTLS `direct` needs it. */
  tlsListener?: boolean | undefined;
  /**
   * Top-level keys the adapter's schema does not know. `refuse` ("unknown field", by name) for
   * what an operator writes now (PUT settings, the seed file): a typo such as `apiBaseURL` must not
   * leave the default silently in place. `ignore` (the default) for settings already stored: a
   * newer build may no longer know a key an older one accepted, and refusing would make the
   * vendor's door answer 500 to every delivery; the keys are returned in `ignoredKeys` to be logged.
   */
  unknownKeys?: 'refuse' | 'ignore' | undefined;
}

const isSecretValue = (value: unknown): boolean =>
  (typeof value === 'string' && value !== '') ||
  (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== ''));

/** What makes a well-formed scheme unusable with these settings: its secret missing, mTLS direct without a listener. */
function schemeProblems(scheme: AuthScheme, raw: Record<string, unknown>, context: ProviderSettingsContext): FieldError[] {
  const key = settingsKeyOf(scheme);
  if (key !== undefined && !isSecretValue(raw[key])) {
    return [
      {
        path: formatPath([key]),
        message: `is required by the auth scheme (${scheme.kind} reads its secret here): a non-empty string, or a list of them while rotating`,
      },
    ];
  }
  if (scheme.kind === 'mtls' && scheme.mode === 'direct' && context.tlsListener === false) {
    return [
      {
        path: 'auth.mode',
        message:
          '"direct" needs this gateway\'s own HTTPS listener (GATEWAY_TLS_PORT), which is not configured; use "proxy" behind a TLS-terminating proxy',
      },
    ];
  }
  return [];
}

/**
 * The operator's `catalogSchedule`: a cron expression croner reads (five fields, or six with seconds; `isValidCron`),
 * only for an adapter that declares a catalog pull.
 */
function scheduleProblems(adapter: AnyAdapter, schedule: unknown): FieldError[] {
  if (schedule === undefined) return [];
  if (!adapter.catalog) return [{ path: 'catalogSchedule', message: `${adapter.display.name}'s adapter has no catalog pull to schedule` }];
  if (typeof schedule !== 'string' || !isValidCron(schedule.trim())) {
    return [
      {
        path: 'catalogSchedule',
        message:
          'must be a cron expression (five fields, or six with leading seconds), e.g. "20 3 * * *" (minute hour day month weekday, the gateway\'s local time)',
      },
    ];
  }
  return [];
}

/**
 * Raw provider settings (as stored, decrypted) → what the featured door needs. The gateway owns
 * three keys the adapter's schema never sees: `auth` (an operator's scheme override, core
 * `AuthScheme`), the override's own secret key when it differs from the adapter's default one (so
 * a strict adapter schema does not refuse it), and `catalogSchedule` (the scheduler's override of
 * the adapter's default cron schedule). Everything else is validated by the adapter's schema (keys it
 * does not know refused or ignored as `context.unknownKeys` says), and a scheme that could never
 * verify (its secret missing or empty; mTLS `direct` where `context` says there is no HTTPS
 * listener) is refused naming the field.
 */
export function parseProviderSettings(
  adapter: AnyAdapter,
  raw: Record<string, unknown>,
  context: ProviderSettingsContext = {},
): ProviderSettingsResult {
  const { auth, catalogSchedule, ...rest } = raw;
  let scheme = adapter.defaultAuth;
  if (auth !== undefined) {
    const parsed = AuthScheme.safeParse(auth);
    if (!parsed.success) return { ok: false, fields: issuesAt(['auth'], parsed.error) };
    scheme = parsed.data;
    const overrideKey = settingsKeyOf(scheme);
    if (overrideKey !== undefined && overrideKey !== settingsKeyOf(adapter.defaultAuth)) delete rest[overrideKey];
  }
  const { settings, ignoredKeys } = parseAdapterSettings(adapter, rest, context.unknownKeys ?? 'ignore');
  const fields = [
    ...(settings.success ? [] : issuesAt([], settings.error)),
    ...schemeProblems(scheme, raw, context),
    ...scheduleProblems(adapter, catalogSchedule),
  ];
  if (!settings.success || fields.length > 0) return { ok: false, fields: dedupe(fields) };
  const notificationUrl = typeof raw.notificationUrl === 'string' ? raw.notificationUrl : undefined;
  return {
    ok: true,
    config: {
      settings: settings.data as Record<string, unknown>,
      scheme,
      secrets: secretsFromSettings(scheme, raw),
      notificationUrl,
      catalogSchedule: typeof catalogSchedule === 'string' ? catalogSchedule.trim() : undefined,
    },
    ignoredKeys,
  };
}

/** The adapter's schema over the settings; with `ignore`, top-level keys it refuses as unknown are left out and it parses the rest. */
function parseAdapterSettings(adapter: AnyAdapter, rest: Record<string, unknown>, unknownKeys: 'refuse' | 'ignore') {
  const parsed = adapter.settings.safeParse(rest);
  if (parsed.success || unknownKeys === 'refuse') return { settings: parsed, ignoredKeys: [] };
  const ignoredKeys = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' && issue.path.length === 0 ? issue.keys : [],
  );
  if (ignoredKeys.length === 0) return { settings: parsed, ignoredKeys };
  const known = Object.fromEntries(Object.entries(rest).filter(([key]) => !ignoredKeys.includes(key)));
  return { settings: adapter.settings.safeParse(known), ignoredKeys };
}

/** One entry per path (the adapter's schema and the scheme check may both name a missing secret). */
const dedupe = (fields: FieldError[]): FieldError[] => fields.filter((f, i) => fields.findIndex((g) => g.path === f.path) === i);
