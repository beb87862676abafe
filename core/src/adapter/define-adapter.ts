import type { z } from 'zod';
import type { CatalogItem } from '../schemas/catalog.js';
import type { FeaturedEnvelope } from '../schemas/featured-envelope.js';
import { AuthScheme, type AuthSchemeInput } from './auth/scheme.js';
import type { HttpClient } from './http-client.js';
import type { NativeRequest } from './native-request.js';
import { settingsSecretKeyProblem } from './settings-secret-key.js';
import { setupFields, type SetupField } from './setup-fields.js';
import type { Handshake, ResponseSpec } from './vendor-answer.js';

export interface AdapterLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

/** What an adapter may use at run time. Adapters never see the container, the database or secrets of others. */
export interface AdapterContext<Settings, Credentials> {
  settings: Settings;
  /** This connection's credentials (fetch-back, catalog); validated by the adapter's schema. */
  credentials: Credentials;
  /** The vendor-side store id of this connection (shop domain, location id, merchant id). */
  storeId: string;
  http: HttpClient;
  logger: AdapterLogger;
  now(): Date;
}

/** One store's share of a native request (Clover batches several merchants in one POST). */
export interface WebhookUnit<Unit> {
  storeId: string;
  unit: Unit;
}

/**
 * A part of a batch the adapter cannot read (a malformed object among good ones): reported in the
 * answer's `skipped` with `reason: "unreadable"` and `detail`, while the rest is processed. One bad
 * object must not make the vendor redeliver, forever, the good ones it came with.
 */
export interface UnreadableUnit {
  storeId: string;
  unreadable: string;
}

export const isUnreadableUnit = (unit: WebhookUnit<unknown> | UnreadableUnit): unit is UnreadableUnit => 'unreadable' in unit;

/**
 * Zero envelopes means "accepted, nothing to do" (a test webhook, a DELETE, a non-final status).
 * They are applied in order; an adapter that states the order's reversals (`refunds.listed`) puts
 * that first, so a reversal withdrawn is never applied to a sale arriving in the same delivery.
 */
export interface MapResult {
  envelopes: FeaturedEnvelope[];
  note?: string;
}

export interface CatalogPage {
  items: CatalogItem[];
  /** Where the next page starts (cursor or offset); null on the last page. */
  checkpoint: string | null;
}

/** The time window a reconciliation pull covers: orders and refunds changed in [since, until). */
export interface ReconcileWindow {
  since: Date;
  until: Date;
  /**
   * Orders (transaction ids) the ledger holds reversals of, recorded recently: read them back too,
   * whatever their modification time. A vendor that does not mark an order modified when a refund
   * of it is deleted (WooCommerce) shows the deletion only when the order is read again.
   */
  revisit?: readonly string[] | undefined;
}

/**
 * One page of a reconciliation pull: the orders and refunds the vendor's API lists as changed in
 * the window, each already mapped by the adapter's OWN mapping (the functions its webhook `map`
 * uses), so an envelope carries exactly the `transaction.id` / `refund.id` the webhook would have
 * sent: a sale the webhook already delivered is then a `duplicate` in the ledger, one it missed is
 * earned now. Orders that are not final (open, unpaid) map to no envelope, as on the webhook.
 */
export interface ReconcilePage {
  envelopes: FeaturedEnvelope[];
  /** Orders on this page that could not be read or mapped: counted as failed on the run, with why. */
  failures?: Array<{ id: string; reason: string }>;
  /** How many vendor orders/refunds this page looked at (found), mapped or not. Default: envelopes + failures. */
  examined?: number;
  /** Where the next page starts (cursor, page number, offset); null on the last page. */
  cursor: string | null;
}

/** One of the vendor's webhook subscriptions for a store, as the vendor's API lists it. */
export interface VendorSubscription {
  id: string;
  topic: string;
  /** Where the vendor delivers it (null when it is not an HTTP endpoint). */
  uri: string | null;
}

/** What `subscriptions.ensure` did, topic by topic: every topic the adapter needs now points at the gateway. */
export interface SubscriptionReport {
  webhookUrl: string;
  created: string[];
  /** Topics whose subscription pointed elsewhere (an old gateway URL) and now points here. */
  repaired: string[];
  unchanged: string[];
  subscriptions: VendorSubscription[];
}

/** A step of the guided setup page. `{{webhookUrl}}` and `{{storeIdLabel}}` are filled in. */
export interface SetupStep {
  title: string;
  body: string;
}

/**
 * A one-time setup call the vendor makes (Clover's verificationCode, Square's test notification):
 * answered 200 and shown to the operator, never mapped.
 */
export interface HandshakeSpec<Native> {
  /**
   * `signed`: authenticated like any event, then recognised (Square signs its test notification).
   * `unsigned`: the vendor sends it before any secret exists (Clover's verificationCode), so the door
   * looks at the payload BEFORE authenticating, only to recognise this call; anything else is
   * authenticated first. Declare `unsigned` only when the vendor really sends it so.
   */
  auth: 'signed' | 'unsigned';
  detect(native: Native, request: NativeRequest): Handshake | null;
}

export interface AdapterSpec<SettingsSchema extends z.ZodType, CredentialsSchema extends z.ZodType, NativeSchema extends z.ZodType, Unit> {
  /** Lowercase, permanent: the path `/webhooks/{slug}` and the X-Service-Vendor value. */
  slug: string;
  /** The directory's card: name, one-line description, category and an inline SVG logo. */
  display: { name: string; description: string; category: 'pos' | 'ecommerce' | 'erp'; logoSvg: string };
  /** The guided setup page: what the merchant types as the store id, and the steps. Its credential rows come from `credentials`. */
  setup: { storeIdLabel: string; steps: SetupStep[] };
  /**
   * Provider-level settings (per vendor app), e.g. the app secret and API base URL. Each field says
   * what it is with `.meta({ title, description, secret? })`, as `credentials` do (the gateway checks its adapters').
   */
  settings: SettingsSchema;
  /**
   * Per-connection credentials for fetch-back and catalog pulls. Each field's
   * `.meta({ title, description, secret? })` is its row on the guided setup page (`setupFields`).
   */
  credentials: CredentialsSchema;
  /**
   * The shape of this vendor's store ids (a connection's `storeId`: shop domain, location id…),
   * checked when a connection is seeded or created. Declare it when the id ends up in a URL the
   * adapter calls with the connection's credentials. Any 1–255 characters when omitted.
   */
  storeId?: z.ZodType<string>;
  /** The default scheme; the operator may configure another the framework supports. */
  auth: AuthSchemeInput;
  /**
   * How the body is decoded before `native` parses it (default `json`). `json-or-form`: JSON when the
   * bytes parse as JSON, else form-encoded (WooCommerce posts JSON events and a form-encoded ping).
   */
  body?: 'json' | 'form' | 'json-or-form';
  /** Loose schema of the vendor's payload (vendors add fields). */
  native: NativeSchema;
  /**
   * The vendor lets a paid order grow (items added after payment, the added money captured) and
   * this adapter emits an order's sale.completed only when the order is paid in full at its
   * current total: a later sale.completed of the same order with a larger total then earns on the
   * added money, once (LoyaltyEngine.raiseSale), instead of being an idempotency conflict.
   */
  paidOrdersGrow?: boolean;
  /** A one-time setup call (Clover's verificationCode): answered 200 and shown to the operator. */
  handshake?: HandshakeSpec<z.infer<NativeSchema>>;
  /** The answer the vendor expects on success, per outcome; the default JSON (`defaultAcceptedAnswer`, `defaultHandshakeAnswer`) when omitted. Errors are always the spec's Error body. */
  response?: ResponseSpec;
  /** Which stores the request concerns, and each one's part of it (or why a part cannot be read). */
  units(native: z.infer<NativeSchema>, request: NativeRequest): Array<WebhookUnit<Unit> | UnreadableUnit>;
  /** Native unit → canonical envelopes, fetching back through ctx where the payload carries only ids. */
  map(
    unit: Unit,
    ctx: AdapterContext<z.infer<SettingsSchema>, z.infer<CredentialsSchema>>,
    request: NativeRequest,
  ): Promise<MapResult> | MapResult;
  catalog?: {
    /** Cron expression in the gateway's local time (five fields, or six with seconds), e.g. '15 3 * * *'. */
    schedule: string;
    pull(ctx: AdapterContext<z.infer<SettingsSchema>, z.infer<CredentialsSchema>>, checkpoint: string | null): Promise<CatalogPage>;
  };
  /**
   * Webhook subscriptions the gateway manages through the vendor's API with the connection's
   * credentials (Shopify: only subscriptions the app creates are signed with the app secret). The
   * gateway calls `ensure` when a connection is created and on the operator's request; `list` shows
   * them. Declare it when the vendor lets an app subscribe a store itself.
   */
  subscriptions?: {
    /** The vendor's topic names the adapter needs (e.g. ORDERS_PAID). */
    topics: readonly string[];
    list(ctx: AdapterContext<z.infer<SettingsSchema>, z.infer<CredentialsSchema>>): Promise<VendorSubscription[]>;
    /** Create what is missing and repair what points elsewhere, so every topic delivers to `webhookUrl`. */
    ensure(ctx: AdapterContext<z.infer<SettingsSchema>, z.infer<CredentialsSchema>>, webhookUrl: string): Promise<SubscriptionReport>;
  };
  /**
   * Order reconciliation: a scheduled pull of the orders and refunds changed since the
   * connection's last checkpoint, so a webhook the vendor never delivered (Clover does not
   * guarantee delivery, WooCommerce does not retry) still earns. The gateway keeps the checkpoint,
   * the cross-process lock and the run records; the adapter lists and maps one page at a time.
   */
  reconcile?: {
    /** Cron expression in the gateway's local time, e.g. '*\/15 * * * *'. */
    schedule: string;
    /**
     * Read back, on each run, the orders with a reversal recorded in the ledger within this many
     * days (`window.revisit`): for a vendor that can delete a refund without marking its order
     * modified (WooCommerce), the only way a missed deletion is seen. Omitted: none.
     */
    revisitDays?: number;
    pull(
      ctx: AdapterContext<z.infer<SettingsSchema>, z.infer<CredentialsSchema>>,
      window: ReconcileWindow,
      cursor: string | null,
    ): Promise<ReconcilePage>;
  };
}

export type Adapter<
  SettingsSchema extends z.ZodType = z.ZodType,
  CredentialsSchema extends z.ZodType = z.ZodType,
  NativeSchema extends z.ZodType = z.ZodType,
  Unit = unknown,
> = Readonly<Omit<AdapterSpec<SettingsSchema, CredentialsSchema, NativeSchema, Unit>, 'setup'>> & {
  readonly defaultAuth: AuthScheme;
  /** The declared setup, with the credential rows read from the `credentials` schema's `.meta()`. */
  readonly setup: Readonly<AdapterSpec<SettingsSchema, CredentialsSchema, NativeSchema, Unit>['setup'] & { credentials: SetupField[] }>;
};

/** Any adapter, as the gateway's typed list holds them. */
export type AnyAdapter = Adapter<z.ZodType, z.ZodType, z.ZodType, any>;

export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/;

/** Declare a featured adapter. Checks what can be checked once, at import. */
export function defineAdapter<S extends z.ZodType, C extends z.ZodType, N extends z.ZodType, U>(
  spec: AdapterSpec<S, C, N, U>,
): Adapter<S, C, N, U> {
  if (!SLUG_PATTERN.test(spec.slug) || spec.slug === 'generic') {
    throw new Error(`adapter slug "${spec.slug}" must be lowercase letters, digits and dashes (and not "generic")`);
  }
  const parsed = AuthScheme.safeParse(spec.auth);
  if (!parsed.success) {
    throw new Error(
      `adapter "${spec.slug}": its auth scheme is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  }
  const defaultAuth = parsed.data;
  if (defaultAuth.kind !== 'mtls' && defaultAuth.secret.from === 'settings') {
    const problem = settingsSecretKeyProblem(spec.settings, defaultAuth.secret.key);
    if (problem) throw new Error(`adapter "${spec.slug}": its auth scheme reads settings.${defaultAuth.secret.key}, but ${problem}`);
  }
  const credentials = setupFields(spec.credentials, `adapter "${spec.slug}": credentials`);
  return Object.freeze({ ...spec, defaultAuth, setup: { ...spec.setup, credentials } });
}
