import type { ReplayTickets } from '../journal/replay-tickets.js';
import type {
  AcceptedOutcome,
  AnyAdapter,
  Connection,
  FetchBackBudget,
  GatewayError,
  ResolvedUnit as CoreResolvedUnit,
  HttpClient,
  NativeRequest,
  OutboundPolicy,
} from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayStore, VendorNoteStore } from '../stores/index.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { HandshakeLimiter, HandshakeLimits } from './handshake-limiter.js';
import type { ProviderConfig } from './provider-settings.js';

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
  /** Fetch-back budget of one unit of a webhook request (WEBHOOK_FETCH_BACK by default; tests shorten it). */
  fetchPolicy?: Partial<FetchBackBudget> | undefined;
  /** Where fetch-backs may go (production: no loopback); DEVELOPMENT_OUTBOUND_POLICY by default. */
  outbound?: OutboundPolicy | undefined;
  /** Handshakes recorded for the operator; logged at warn only when absent. */
  notes?: HandshakeNotes | undefined;
  /** How many unsigned handshakes may be recorded (HANDSHAKE_LIMITS by default). */
  handshakeLimits?: HandshakeLimits | undefined;
}

/** Everything one door needs at request time. */
export interface DoorDeps {
  adapter: AnyAdapter;
  store: FeaturedStore;
  pipeline: WebhookPipeline;
  /** A fetch-back client for one request, its deadline starting now. */
  fetchClient(): HttpClient;
  notes: HandshakeNotes | undefined;
  /** Counts unsigned handshakes (one per door). */
  handshakeLimiter: HandshakeLimiter;
  publicUrl: string | undefined;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** An operator's replay names its ticket in a header: the door then reads the request as at its first receipt. */
  replayTickets: ReplayTickets | undefined;
}

export type { FeaturedResult, SkippedUnit } from '@loyalty-gateway/core';

/** The default 200 bodies of `POST /webhooks/{slug}` (an adapter may declare another answer). */
export type FeaturedResponse = { status: 'handshake'; note: string } | AcceptedOutcome;

/** A unit whose store resolved to an active connection (core's resolveUnits, shared with the adapter test kit). */
export type ResolvedUnit = CoreResolvedUnit<Connection>;

export type RequestLogger = FastifyBaseLogger;

/** What every step of one featured request shares. */
export interface RequestScope {
  provider: ProviderConfig;
  native: NativeRequest;
  /** A fetch-back client for one unit: each unit gets the whole budget (a batch's slow but working units all earn). */
  fetchClient(): HttpClient;
  /** Set when a unit's fetch-back failed: later units of this request fail at once, so a down API costs one budget, not one per unit. */
  vendorFailure?: GatewayError | undefined;
  log: RequestLogger;
  /** An operator's preview of a payload (the admin API): the pipeline previews, nothing is committed. */
  preview?: boolean | undefined;
}
