import type { AnyAdapter, Connection, HttpClient, NativeRequest, WebhookResult } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayStore, VendorNoteStore } from '../stores/index.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { ProviderConfig } from './provider-settings.js';
import type { WebhookFetchPolicy } from './webhook-fetch-policy.js';

/** What the featured door reads from the gateway store. */
export type FeaturedStore = Pick<GatewayStore, 'getVendor' | 'find' | 'getCredentials'>;

/** Where handshakes are kept for the operator (the admin API lists them). */
export type HandshakeNotes = Pick<VendorNoteStore, 'recordVendorNote'>;

/** Options of the featured doors, as buildApp receives them. */
export interface FeaturedDoorOptions {
  store: FeaturedStore;
  /** Defaults to the gateway's typed adapter list (tests pass their own). */
  adapters?: readonly AnyAdapter[] | undefined;
  /** GATEWAY_PUBLIC_URL: the base of the URL an HMAC over `url+body` covers when no notificationUrl is set. */
  publicUrl?: string | undefined;
  /** Fetch-back budget of one webhook request (WEBHOOK_FETCH_POLICY by default; tests shorten it). */
  fetchPolicy?: Partial<WebhookFetchPolicy> | undefined;
  /** Handshakes recorded for the operator; logged at warn only when absent. */
  notes?: HandshakeNotes | undefined;
}

/** Everything one door needs at request time. */
export interface DoorDeps {
  adapter: AnyAdapter;
  store: FeaturedStore;
  pipeline: WebhookPipeline;
  /** A fetch-back client for one request, its deadline starting now. */
  fetchClient(): HttpClient;
  notes: HandshakeNotes | undefined;
  publicUrl: string | undefined;
  /** Milliseconds since the epoch. */
  clock: () => number;
}

/** One canonical event's outcome, as the door answers it. */
export type FeaturedResult = WebhookResult & {
  storeId: string;
  eventId: string;
  eventType: string;
  transactionId: string;
  refundId?: string | undefined;
};

/** A unit not processed: no active connection for its store, or its per-connection check failed. */
export interface SkippedUnit {
  storeId: string;
  reason: 'unknown_connection' | 'bad_signature' | 'stale_timestamp';
}

/** The 200 body of `POST /webhooks/{slug}`. Vendors only need the 200; support reads the rest. */
export type FeaturedResponse =
  | { status: 'handshake'; note: string }
  | { status: 'accepted'; results: FeaturedResult[]; skipped: SkippedUnit[]; notes: string[] };

export interface ResolvedUnit {
  storeId: string;
  unit: unknown;
  connection: Connection;
}

export type RequestLogger = FastifyBaseLogger;

/** What every step of one featured request shares. */
export interface RequestScope {
  provider: ProviderConfig;
  native: NativeRequest;
  /** This request's fetch-back client (one deadline for all its units). */
  http: HttpClient;
  log: RequestLogger;
}
