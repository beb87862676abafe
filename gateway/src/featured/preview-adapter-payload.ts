import {
  GatewayError,
  readNativePayload,
  VendorApiError,
  type AdapterPreview,
  type AnyAdapter,
  type Connection,
  type HttpClient,
  type NativeRequest,
  type PreviewedUnit,
} from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import { notedFailure } from '../journal/failure-cause.js';
import { earnPreviewOf } from '../webhooks/earn-preview-of.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { DoorDeps, FeaturedStore, RequestScope } from './featured-types.js';
import { createHandshakeLimiter } from './handshake-limiter.js';
import { processUnit } from './process-unit.js';
import { parseProviderSettings } from './provider-settings.js';

/** A native payload as the vendor would send it, and how to preview it. */
export interface AdapterPreviewInput {
  /** The request body's exact bytes. */
  body: Buffer;
  /** The headers the vendor would send (its store header, topic, …); names in any case. Its credentials are not checked. */
  headers: Record<string, string>;
  /** The connection (its store id) every unit is mapped for; else each unit's own store's connection. */
  store?: string | undefined;
  /** Call the vendor's API when the mapping fetches back, with the connection's credentials; otherwise such a unit says what it would call. */
  fetchBack: boolean;
}

export interface AdapterPreviewDeps {
  adapter: AnyAdapter;
  store: FeaturedStore;
  /** The doors' pipeline; it runs in preview mode here (nothing committed, nothing cached). */
  pipeline: WebhookPipeline;
  /** A fetch-back client with the doors' budget and outbound policy. */
  fetchClient(): HttpClient;
  /** Milliseconds since the epoch. */
  clock: () => number;
  publicUrl: string | undefined;
  log: FastifyBaseLogger;
}

/** The client a preview maps with when it was not asked to fetch back: every call is refused, saying what it would have called. */
class FetchBackNotAsked extends VendorApiError {
  constructor(url: string) {
    super(
      0,
      url,
      "not called: this preview was not asked to fetch back (fetchBack: true calls the vendor API with the connection's credentials)",
    );
  }
}
const noFetchBack: HttpClient = {
  json: (url) => Promise.reject(new FetchBackNotAsked(url)),
  request: (url) => Promise.reject(new FetchBackNotAsked(url)),
};

const connectionView = (c: Connection) => ({ id: c.id, storeId: c.storeId, merchantId: c.merchantId, outletId: c.outletId });

/**
 * An operator's preview of a native payload (POST /admin/adapters/{slug}/preview): the featured
 * door's own steps after authentication — core's reading of the payload (decode, native schema,
 * handshake, units), then each unit through processUnit (credentials, the adapter's mapping and
 * its fetch-back, the canonical check of every envelope, the store check) and the doors' pipeline
 * in preview mode — so what it answers is what the door would do with it now, with nothing
 * committed: no ledger row, no cache key, no journal entry (the admin API is not journalled), no
 * note for the operator. Authentication is skipped: the operator vouches for the payload.
 */
export async function previewAdapterPayload(deps: AdapterPreviewDeps, input: AdapterPreviewInput): Promise<AdapterPreview> {
  const { adapter } = deps;
  const vendor = await deps.store.getVendor(adapter.slug);
  const parsed = parseProviderSettings(adapter, vendor?.settings ?? {});
  if (!parsed.ok)
    throw new GatewayError('invalid_settings', {
      message: `${adapter.display.name}'s provider settings do not fit its adapter (${vendor?.settings ? 'see fields' : 'none are set'}): the mapping reads them. PUT /admin/vendors/${adapter.slug}/settings first.`,
      fields: parsed.fields,
    });
  const chosen = input.store === undefined ? null : await deps.store.find(adapter.slug, input.store);
  if (input.store !== undefined && !chosen)
    throw new GatewayError('connection_not_found', { message: `${adapter.slug} has no connection for store "${input.store}".` });

  const headers = Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const native: NativeRequest = {
    method: 'POST',
    url: parsed.config.notificationUrl ?? `${(deps.publicUrl ?? 'http://127.0.0.1').replace(/\/+$/, '')}/webhooks/${adapter.slug}`,
    headers,
    rawBody: input.body,
    remoteAddress: '127.0.0.1',
    peerCertificate: undefined,
  };
  const reading = readNativePayload(adapter, native);
  if (reading.kind === 'handshake')
    return { adapter: adapter.slug, handshake: { note: reading.handshake.note }, units: [], unreadable: [] };

  const door: DoorDeps = {
    adapter,
    store: deps.store,
    pipeline: deps.pipeline,
    fetchClient: input.fetchBack ? deps.fetchClient : () => noFetchBack,
    notes: undefined,
    handshakeLimiter: createHandshakeLimiter(undefined, deps.clock),
    publicUrl: deps.publicUrl,
    clock: deps.clock,
    replayTickets: undefined,
  };
  // Its lines say they are a preview's: a fetch-back failure here is no vendor redelivering.
  const log = deps.log.child({ preview: true });
  const scope: RequestScope = { provider: parsed.config, native, fetchClient: door.fetchClient, log, preview: true };
  const units: PreviewedUnit[] = [];
  // One unit after the other, in the payload's order (the door runs a batch's stores side by side; the previews are the same).
  for (const { storeId, unit } of reading.units) {
    const connection = chosen ?? (await deps.store.find(adapter.slug, storeId));
    if (!connection) {
      units.push({
        storeId,
        connection: null,
        note: null,
        events: [],
        error: {
          code: 'connection_not_found',
          message: `No connection of ${adapter.slug} for store "${storeId}": preview it for one of yours with store.`,
          cause: null,
        },
      });
      continue;
    }
    try {
      const outcome = await processUnit(door, scope, { storeId: connection.storeId, unit, connection });
      units.push({
        storeId,
        connection: connectionView(connection),
        note: outcome.note ?? null,
        events: outcome.envelopes.map(({ envelope, result, refused }) => ({
          envelope,
          ...(result ? { preview: earnPreviewOf(result) } : {}),
          ...(refused ? { refused: { code: refused.code, message: refused.message } } : {}),
        })),
        error: null,
      });
    } catch (error) {
      const coded = error instanceof GatewayError ? error : new GatewayError('internal_error', { cause: error });
      units.push({
        storeId,
        connection: connectionView(connection),
        note: null,
        events: [],
        error: { code: coded.code, message: coded.message, cause: notedFailure(error) },
      });
    }
  }
  return {
    adapter: adapter.slug,
    handshake: null,
    units,
    unreadable: reading.unreadable.map((u) => ({ storeId: u.storeId, detail: u.unreadable })),
  };
}
