import { authenticate, GatewayError, type NativeRequest } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';
import type { Vendor } from '../stores/index.js';
import { authFailure } from './auth-failure.js';
import { decodeNative } from './decode-native.js';
import { featuredAudit } from './featured-audit.js';
import type { DoorDeps, FeaturedResponse, RequestLogger, RequestScope } from './featured-types.js';
import { nativeRequestOf, signedUrlOf } from './native-request-of.js';
import { processUnits } from './process-units.js';
import { parseProviderSettings, type ProviderConfig, type ProviderSettingsResult } from './provider-settings.js';
import { recordHandshake } from './record-handshake.js';
import { resolveUnits } from './resolve-units.js';

type FeaturedHandler = (request: FastifyRequest) => Promise<FeaturedResponse>;

/**
 * `POST /webhooks/{slug}` for one adapter. Per request: the vendor must be featured right now
 * (promotion needs no restart); provider settings → scheme; decode + native schema; handshake
 * (before auth: Clover's verificationCode is unauthenticated); request-level auth; units →
 * connections (per-connection auth); map → canonical envelopes → the shared webhook pipeline.
 */
export function featuredHandler(deps: DoorDeps): FeaturedHandler {
  const { adapter } = deps;
  // Parsed once per settings version: getVendor hands back the same object until the vendor changes.
  const parsedSettings = new WeakMap<Vendor, ProviderSettingsResult>();

  function providerOf(vendor: Vendor, log: RequestLogger): ProviderConfig {
    let result = parsedSettings.get(vendor);
    if (!result) parsedSettings.set(vendor, (result = parseProviderSettings(adapter, vendor.settings ?? {})));
    if (result.ok) return result.config;
    log.error({ vendor: adapter.slug, fields: result.fields }, 'provider settings invalid');
    throw new GatewayError('internal_error', { message: 'The gateway is misconfigured for this vendor. Retry with backoff.' });
  }

  function authenticateRequest(provider: ProviderConfig, native: NativeRequest, log: RequestLogger): void {
    if (provider.secrets === 'per-connection') return; // checked per unit, with each connection's secrets
    const check = authenticate(provider.scheme, provider.secrets === 'none' ? [] : provider.secrets, native, new Date(deps.clock()));
    if (check.ok) return;
    log.warn({ vendor: adapter.slug, scheme: provider.scheme.kind, reason: check.reason, detail: check.detail }, 'featured webhook refused');
    throw authFailure(check.reason);
  }

  return async function handle(request) {
    const log = request.log;
    const vendor = await deps.store.getVendor(adapter.slug);
    if (!vendor || vendor.tier !== 'featured') throw new GatewayError('vendor_not_featured');
    const provider = providerOf(vendor, log);
    const native = nativeRequestOf(request, signedUrlOf(request, provider.notificationUrl, deps.publicUrl));
    const body = decodeNative(adapter, native.rawBody);

    const handshake = adapter.handshake?.(body, native) ?? null;
    if (handshake) {
      await recordHandshake(deps.notes, adapter.slug, handshake, log);
      request.audit = { outcome: 'handshake' };
      return { status: 'handshake', note: handshake.note };
    }
    authenticateRequest(provider, native, log);

    const units = adapter.units(body, native);
    if (units.length === 0) {
      request.audit = { outcome: 'no-store' };
      return { status: 'accepted', results: [], skipped: [], notes: ['The request concerns no store: nothing to do.'] };
    }
    const scope: RequestScope = { provider, native, http: deps.fetchClient(), log };
    const { resolved, skipped } = await resolveUnits(deps, scope, units);
    request.connection = resolved[0]?.connection ?? null;

    // When a unit failed, the first failure is the answer (the vendor redelivers the request).
    const { outcomes, failure } = await processUnits(deps, scope, resolved);
    const results = outcomes.flatMap((o) => o.results);
    const notes = outcomes.flatMap((o) => (o.note ? [o.note] : []));
    request.audit = featuredAudit(results, skipped.length);
    if (failure) throw failure.error;
    return { status: 'accepted', results, skipped, notes };
  };
}
