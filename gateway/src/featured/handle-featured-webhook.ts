import {
  AuthRefusal,
  GatewayError,
  noStoreOutcome,
  readNativeRequest,
  recogniseUnsignedHandshake,
  resolveUnits,
  type AcceptedOutcome,
  type NativeReading,
  type NativeRequest,
} from '@loyalty-gateway/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteFailure } from '../journal/failure-cause.js';
import { tallyEarned } from '../webhooks/earned-tally.js';
import type { Vendor } from '../stores/index.js';
import { featuredAudit } from './featured-audit.js';
import type { DoorDeps, RequestLogger, RequestScope } from './featured-types.js';
import { nativeRequestOf, signedUrlOf } from './native-request-of.js';
import { processByStore } from './process-by-store.js';
import { IGNORED_SETTINGS_KEYS, parseProviderSettings, type ProviderConfig, type ProviderSettingsResult } from './provider-settings.js';
import { recordHandshake } from './record-handshake.js';
import { sendVendorAnswer } from './send-vendor-answer.js';

/** The vendor note kind of a verified delivery for a store with no connection. */
export const UNKNOWN_STORE_NOTE = 'unknown_store';

type FeaturedHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * `POST /webhooks/{slug}` for one adapter. Per request: the vendor must be featured right now
 * (promotion needs no restart); provider settings → scheme; then core's readNativeRequest
 * (an unsigned handshake the adapter declares; authentication over the raw bytes; decode + native
 * schema; a signed handshake; units); core's resolveUnits (units → connections, per-connection
 * auth), both at one instant and shared with the adapter test kit; map → canonical envelopes →
 * the shared webhook pipeline; the answer the adapter declares (default JSON).
 */
export function featuredHandler(deps: DoorDeps): FeaturedHandler {
  const { adapter } = deps;
  // Parsed once per settings version: getVendor hands back the same object until the vendor changes.
  const parsedSettings = new WeakMap<Vendor, ProviderSettingsResult>();

  function providerOf(vendor: Vendor, log: RequestLogger): ProviderConfig {
    let result = parsedSettings.get(vendor);
    if (!result) {
      parsedSettings.set(vendor, (result = parseProviderSettings(adapter, vendor.settings ?? {})));
      // Once per settings version and process: keys an older build accepted do not stop the door.
      if (result.ok && result.ignoredKeys.length > 0)
        log.warn({ vendor: adapter.slug, ignoredKeys: result.ignoredKeys }, IGNORED_SETTINGS_KEYS);
    }
    if (result.ok) return result.config;
    log.error({ vendor: adapter.slug, fields: result.fields }, 'provider settings invalid');
    const error = new GatewayError('internal_error', { message: 'The gateway is misconfigured for this vendor. Retry with backoff.' });
    // The journal's story names what to fix: the settings' field paths and messages, never their values.
    const fields = result.fields.slice(0, 5).map((f) => `${f.path}: ${f.message}`);
    throw noteFailure(error, { call: `${adapter.slug} provider settings`, what: `invalid: ${fields.join('; ')}`, ms: null });
  }

  function read(provider: ProviderConfig, native: NativeRequest, now: Date, log: RequestLogger): NativeReading {
    try {
      return readNativeRequest(adapter, provider, native, now);
    } catch (error) {
      if (error instanceof AuthRefusal) {
        log.warn(
          { vendor: adapter.slug, scheme: provider.scheme.kind, reason: error.reason, detail: error.detail },
          'featured webhook refused',
        );
      }
      throw error;
    }
  }

  async function accept(
    request: FastifyRequest,
    scope: RequestScope,
    now: Date,
    reading: Extract<NativeReading, { kind: 'units' }>,
  ): Promise<AcceptedOutcome> {
    if (reading.units.length === 0) {
      request.audit = { outcome: 'no-store' };
      return noStoreOutcome();
    }
    const find = (storeId: string) => deps.store.find(adapter.slug, storeId);
    const { resolved, skipped } = await resolveUnits(
      { adapter, auth: scope.provider, request: scope.native, now, find, log: scope.log },
      reading,
    );
    request.connection = resolved[0]?.connection ?? null;
    // resolveUnits authenticated each resolved unit with the adapter's scheme.
    request.authenticated = resolved.length > 0;
    await noteUnknownStores(skipped, scope.log);
    // When a unit failed, the first failure is the answer (the vendor redelivers the request).
    const { outcomes, failure } = await processByStore(deps, scope, resolved);
    const results = outcomes.flatMap((o) => o.results);
    const refused = outcomes.flatMap((o) => o.refused);
    request.audit = { ...featuredAudit(results, skipped.length, refused.length), earned: tallyEarned(outcomes.flatMap((o) => o.earned)) };
    if (failure) throw failure.error;
    return { status: 'accepted', results, skipped: [...skipped, ...refused], notes: outcomes.flatMap((o) => (o.note ? [o.note] : [])) };
  }

  /**
   * Stores a verified delivery named but the operator has not connected: one note per store
   * (kind `unknown_store`, counted, first and last seen) so connecting the merchant is one step.
   * A note that cannot be written is logged; the delivery is still answered.
   */
  async function noteUnknownStores(skipped: ReadonlyArray<{ storeId: string; reason: string }>, log: RequestScope['log']): Promise<void> {
    const notes = deps.notes;
    if (!notes) return;
    const stores = new Set(skipped.filter((s) => s.reason === 'unknown_connection').map((s) => s.storeId));
    for (const storeId of stores) {
      await notes
        .recordVendorNote(adapter.slug, {
          kind: UNKNOWN_STORE_NOTE,
          value: storeId.slice(0, 4096),
          note: `A verified ${adapter.display.name} delivery named this store, which has no active connection: nothing was earned. Connect it with: npm run cli -- admin connections create --vendor ${adapter.slug} --store '${storeId.replace(/'/g, '')}' --merchant <merchant> --outlet <outlet>`.slice(
            0,
            1000,
          ),
        })
        .catch((error: unknown) =>
          log.error({ err: error, vendor: adapter.slug, store: storeId }, 'could not record the unknown store for the operator'),
        );
    }
  }

  return async function handle(request, reply) {
    const log = request.log;
    // An operator's replay of a kept delivery: authenticated and read as at its first receipt.
    const replay = (request.replay = deps.replayTickets?.take(request) ?? null);
    const vendor = await deps.store.getVendor(adapter.slug);
    if (!vendor || vendor.tier !== 'featured') {
      // The vendor's setup call comes before its secret exists and before promotion (Clover issues
      // the auth code promotion needs only after it): recorded for any registered adapter whatever
      // its tier or settings. Nothing else is accepted here.
      const native = nativeRequestOf(request, signedUrlOf(request, undefined, deps.publicUrl));
      const early = recogniseUnsignedHandshake(adapter, native);
      if (!early) throw new GatewayError('vendor_not_featured');
      await recordHandshake(
        { notes: deps.notes, limiter: deps.handshakeLimiter },
        adapter.slug,
        { ...early, signed: false, remoteAddress: request.ip },
        log,
      );
      request.audit = { outcome: 'handshake' };
      return sendVendorAnswer(reply, deps, { kind: 'handshake', handshake: early }, native, log);
    }
    const provider = providerOf(vendor, log);
    const native = nativeRequestOf(request, signedUrlOf(request, provider.notificationUrl, deps.publicUrl));
    const now = new Date(replay ? replay.receivedAt : deps.clock());
    const reading = read(provider, native, now, log);

    if (reading.kind === 'handshake') {
      const { handshake, signed } = reading;
      await recordHandshake(
        { notes: deps.notes, limiter: deps.handshakeLimiter },
        adapter.slug,
        { ...handshake, signed, remoteAddress: request.ip },
        log,
      );
      request.audit = { outcome: 'handshake' };
      return sendVendorAnswer(reply, deps, { kind: 'handshake', handshake }, native, log);
    }
    const scope: RequestScope = { provider, native, fetchClient: deps.fetchClient, log };
    const outcome = await accept(request, scope, now, reading);
    return sendVendorAnswer(reply, deps, { kind: 'accepted', outcome }, native, log);
  };
}
