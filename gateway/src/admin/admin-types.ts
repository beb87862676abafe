import type { ConsoleSessions } from '../console/console-session.js';
import type { EngineSeedInput } from '@loyalty-gateway/engine';
import type { ConnectionActivity } from '../http/connection-activity.js';
import type { ClockSkewTracker } from '../http/clock-skew.js';
import type { AnyAdapter, LoyaltyEngine, OutboundPolicy } from '@loyalty-gateway/core';
import type { CatalogRunner } from '../scheduler/index.js';
import type { Reconciler } from '../reconcile/index.js';
import type { SubscriptionManager } from '../subscriptions/index.js';
import type { DeliveryJournal, ReplayTickets } from '../journal/index.js';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { CatalogRunStore, GatewayStore, VendorNoteStore } from '../stores/index.js';
import type { DirectoryOptions } from '../directory/index.js';

export type ReplayTicketInput = Parameters<ReplayTickets['issue']>[0];

/** The operator side's part of the main app (the composition root's TOKENS.operatorSide): buildApp's options for it. */
export interface OperatorSide {
  appOptions: { admin: AdminOptions; directory: DirectoryOptions };
}

/** What the /admin API needs; the API is mounted only when a token is configured. */
export interface AdminOptions {
  /** GATEWAY_ADMIN_TOKEN. Undefined: /admin is off (every route answers 404 not_found). */
  token: string | undefined;
  /** The embedded reference engine's seed path (creating merchants and outlets); absent with a remote engine. */
  engineSeed?: ((seed: EngineSeedInput) => Promise<void>) | undefined;
  /** Set by buildApp: the app's clock-skew telemetry. */
  clockSkew?: ClockSkewTracker | undefined;
  /** Set by buildApp: each connection's last answer and last hour of requests. */
  activity?: ConnectionActivity | undefined;
  /** Operator console sessions (the gateway's database: shared by every process). */
  consoleSessions: ConsoleSessions;
  /** Set by buildApp: tickets of replays sent through a featured door again. */
  replayTickets?: ReplayTickets | undefined;
  store: GatewayStore;
  /** The loyalty engine: a connection is made only to a merchant and outlet it has (read-only findOutlet). */
  engine: Pick<LoyaltyEngine, 'findOutlet' | 'listMerchants'>;
  notes: VendorNoteStore;
  runs: CatalogRunStore;
  /** Starts manual catalog pulls (the same runner the scheduler uses). */
  runner: CatalogRunner;
  /** Order reconciliation (manual runs and their history); without it those routes answer 404. */
  reconciler?: Reconciler | undefined;
  /** Webhook subscriptions managed through vendors' APIs; without it those routes answer 404 and creating a connection subscribes nothing. */
  subscriptions?: SubscriptionManager | undefined;
  /** The delivery journal (GET /admin/deliveries…); without it those routes answer 404. */
  journal?: DeliveryJournal | undefined;
  /** The exactly-once pipeline a replay goes through (the doors' own). */
  replayPipeline?: WebhookPipeline | undefined;
  /** The doors' pipeline an adapter preview runs in preview mode (nothing committed); without it the preview answers 404. */
  previewPipeline?: WebhookPipeline | undefined;
  /** Where an adapter preview's fetch-back may go (the doors' outbound policy); development's when absent. */
  outbound?: OutboundPolicy | undefined;
  /** GATEWAY_PUBLIC_URL: the URL an adapter preview's payload is read as sent to. */
  publicUrl?: string | undefined;
  /** The gateway's typed adapter list by default. */
  adapters?: readonly AnyAdapter[] | undefined;
  /** Now (rotation deadlines). */
  clock?: (() => Date) | undefined;
  /** Whether this gateway runs its HTTPS listener (GATEWAY_TLS_PORT): mTLS `direct` settings need it. Unknown: not checked. */
  tlsListener?: boolean | undefined;
  /**
   * Called after a vendor's settings or tier were written, so what derives from them in this process
   * (catalog schedules, the HTTPS listener's client CAs) follows before the answer is sent.
   */
  onVendorChanged?: (() => Promise<void>) | undefined;
  /** The longest an admin write waits for `onVendorChanged` before answering (VENDOR_CHANGE_WAIT_MS). */
  vendorChangeWaitMs?: number | undefined;
}

export interface AdminDeps {
  engineSeed?: ((seed: EngineSeedInput) => Promise<void>) | undefined;
  /** Clock skew per connection as this process saw it (GET /admin/connections). */
  clockSkew?: ClockSkewTracker | undefined;
  /** Last answer and last hour's requests per connection as this process answered them (GET /admin/connections, the console). */
  activity?: ConnectionActivity | undefined;
  store: GatewayStore;
  engine: Pick<LoyaltyEngine, 'findOutlet' | 'listMerchants'>;
  notes: VendorNoteStore;
  runs: CatalogRunStore;
  runner: CatalogRunner;
  reconciler: Reconciler | undefined;
  subscriptions: SubscriptionManager | undefined;
  journal: DeliveryJournal | undefined;
  replayPipeline: WebhookPipeline | undefined;
  previewPipeline: WebhookPipeline | undefined;
  outbound: OutboundPolicy | undefined;
  publicUrl: string | undefined;
  /** A kept featured delivery is replayed through its own door: a request injected into this app with a ticket. */
  replayThroughDoor: ((request: InjectOptions, ticket: ReplayTicketInput) => Promise<LightMyRequestResponse>) | undefined;
  adapters: readonly AnyAdapter[];
  adapterOf(slug: string): AnyAdapter | undefined;
  now(): Date;
  tlsListener: boolean | undefined;
  vendorChanged(): Promise<void>;
}

/** Every admin route: no per-connection rate limit (the admin scope's bearer token is its auth). */
export const ADMIN_ROUTE = { config: { rateLimit: false as const } };
