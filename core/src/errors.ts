import type { FieldError } from './schemas/error.js';

/**
 * One entry of the table. `headers` are sent with every answer of that code (a GatewayError may
 * add or override some): the retry hint of the earn webhook's engine outage.
 */
export interface ErrorEntry {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one table of coded errors. Every failure the gateway or the engine reports is one of these:
 * an HTTP status, a stable machine-readable `code` and a default message written for whoever
 * reads it (on redeem, the cashier, who sees it verbatim). The engine service adds its own few
 * for the gateway (ENGINE_SERVICE_ERRORS below). docs/errors.md and docs/engine-service.md are
 * checked against both, and errors.test.ts finds every code a source file answers in them.
 */
export const ERRORS = {
  // 400: the request itself is wrong
  malformed_json: { status: 400, message: 'The request body is not valid JSON.' },
  malformed_body: { status: 400, message: 'The request body must be a JSON object.' },
  // 400, not 415: the spec's only status for a malformed body is 400.
  unsupported_media_type: { status: 400, message: 'Send the body as application/json.' },
  malformed_request: { status: 400, message: 'The request is not valid HTTP.' },
  missing_field: { status: 400, message: 'A required field is missing.' },
  store_mismatch: { status: 400, message: 'store.id in the body does not equal the X-Service-Store header.' },
  selector_required: { status: 400, message: 'Send exactly one of rewardId or pointsToRedeem.' },
  not_eligible: { status: 400, message: 'This reward cannot be redeemed for this customer.' },
  insufficient_points: { status: 400, message: 'The customer does not have enough points.' },
  minimum_spend_not_met: { status: 400, message: 'The order does not reach the minimum spend for this reward.' },
  reward_not_found: { status: 400, message: 'This reward does not exist for this merchant.' },
  refund_id_reused: {
    status: 400,
    message: 'This refund id was already used for another refund; nothing was reversed now. Give every refund its own id.',
  },
  currency_mismatch: {
    status: 400,
    message:
      "This refund is in another currency than the sale it refunds; nothing was reversed. Send the refund amount in the sale's currency.",
  },
  redemption_reversed: {
    status: 400,
    message: 'This redemption was refunded: do not apply it. Nothing was deducted now; to redeem again, use a new order id.',
  },
  invalid_native_payload: { status: 400, message: 'The vendor payload could not be read.' },
  catalog_pulled: {
    status: 400,
    message: 'This vendor is featured: the operator pulls its catalog on a schedule, so a pushed catalog is not accepted.',
  },
  // 401: authentication (do not retry; check credentials and clock)
  bad_signature: { status: 401, message: 'The X-Service-Signature header is missing or does not match the request.' },
  stale_timestamp: { status: 401, message: 'X-Service-Timestamp is missing or more than 300 seconds from server time.' },
  unknown_connection: { status: 401, message: 'No active connection for this vendor and store.' },
  admin_unauthorized: { status: 401, message: 'The admin API needs Authorization: Bearer <GATEWAY_ADMIN_TOKEN>.' },
  // 404
  not_found: { status: 404, message: 'No such endpoint.' },
  member_not_found: { status: 404, message: 'This customer is not a member. Offer signup.' },
  endpoint_not_enabled: { status: 404, message: 'This endpoint is not enabled in this environment.' },
  vendor_not_featured: { status: 404, message: 'This vendor has no featured endpoint; use /webhooks/generic.' },
  vendor_not_found: { status: 404, message: 'No vendor with this slug.' },
  adapter_not_found: { status: 404, message: 'This gateway has no featured adapter with this slug.' },
  connection_not_found: { status: 404, message: 'No connection with this id.' },
  delivery_not_found: { status: 404, message: 'No journal entry with this id or request id (entries are kept GATEWAY_JOURNAL_DAYS days).' },
  merchant_not_found: { status: 404, message: 'No merchant with this id.' },
  // 405 / 409 / 413 / 422 / 429
  method_not_allowed: { status: 405, message: 'This method is not allowed on this endpoint.' },
  already_redeemed: { status: 409, message: 'Already redeemed against this order.' },
  redemption_in_progress: { status: 409, message: 'This redemption is already being processed.' },
  connection_exists: { status: 409, message: 'A connection for this vendor and store already exists.' },
  vendor_exists: { status: 409, message: 'A vendor with this slug already exists.' },
  merchant_exists: { status: 409, message: 'A merchant with this id already exists.' },
  outlet_exists: { status: 409, message: 'This merchant already has an outlet with this id.' },
  engine_managed: { status: 409, message: 'Merchants and outlets live in the remote loyalty engine: manage them there.' },
  catalog_run_in_progress: { status: 409, message: 'A catalog pull for this connection is already running.' },
  adapter_not_registered: { status: 409, message: 'This gateway has no featured adapter for this vendor, so it cannot be promoted.' },
  reconcile_not_available: {
    status: 409,
    message:
      'This connection cannot be reconciled now: the vendor must be featured, its adapter must declare a reconciliation pull, and the connection must be active.',
  },
  reconcile_run_in_progress: {
    status: 409,
    message: 'A reconciliation run of this connection is already running; see GET /admin/reconcile-runs.',
  },
  replay_not_available: { status: 409, message: 'This delivery cannot be replayed.' },
  subscriptions_not_available: {
    status: 409,
    message:
      "The gateway cannot manage this connection's webhook subscriptions now: its adapter must manage subscriptions, the vendor must be featured, GATEWAY_PUBLIC_URL must be set and the connection must hold the API credentials.",
  },
  catalog_not_available: {
    status: 409,
    message:
      'This connection cannot be pulled now: the vendor must be featured, its adapter must declare a catalog pull, and the connection must be active.',
  },
  request_timeout: { status: 408, message: 'The request was not received in time: send the whole request promptly.' },
  payload_too_large: { status: 413, message: 'The request body exceeds the 1 MiB limit.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  validation_failed: { status: 422, message: 'The request failed validation.' },
  invalid_settings: { status: 422, message: 'The provider settings do not match what this adapter needs.' },
  rate_limited: { status: 429, message: 'Too many requests for this connection. Retry after the Retry-After delay.' },
  // 5xx
  internal_error: { status: 500, message: 'Something went wrong in the gateway. Retry with backoff.' },
  // 500, not 503: the spec lists 500 (retry with backoff) for the earn webhook; Retry-After is the schedule's first step.
  engine_unavailable_retry: {
    status: 500,
    message:
      'The loyalty engine is unreachable or did not answer in time; the event may not have been recorded. Retry with backoff: a repeat of an event that was recorded answers duplicate.',
    headers: { 'retry-after': '1' },
  },
  engine_unavailable: {
    status: 502,
    message: 'The loyalty engine is temporarily unreachable. Retry once, then complete the sale without loyalty.',
  },
  not_ready: { status: 503, message: 'The gateway is not ready.' },
  shutting_down: {
    status: 503,
    message: 'This gateway process is shutting down; nothing was recorded. Retry after the Retry-After delay (another process answers).',
    headers: { 'retry-after': '1' },
  },
  service_unavailable: {
    status: 503,
    message: 'The gateway cannot reach its database right now; nothing was recorded. Retry after the Retry-After delay.',
    headers: { 'retry-after': '1' },
  },
  vendor_api_failed: { status: 502, message: "The vendor's API refused or failed the call; the message says what it answered." },
  vendor_api_unavailable: {
    status: 503,
    message: 'The vendor API could not be reached to complete this event; it was not recorded. Retry later.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);

/**
 * The engine service's own answers to its one caller, the gateway (`{ code, message, fields? }`,
 * docs/engine-service.md), beside the codes of ERRORS it answers as the embedded engine would.
 * None reaches a vendor: the gateway's engine client takes `engine_unavailable` (503 here, the
 * service cannot serve) for an outage and any other of these for a fault of its own
 * (`internal_error`), so `isErrorCode` stays false for those outside ERRORS.
 */
export const ENGINE_SERVICE_ERRORS = {
  /** A command body that does not fit the port: a gateway bug. */
  invalid_command: { status: 400, message: 'The engine command is invalid.' },
  /** Not JSON, or refused by Fastify itself (its own 4xx kept, e.g. 413 over 16 MiB). */
  bad_request: { status: 400, message: 'The request could not be read.' },
  unauthorized: { status: 401, message: 'Missing or wrong engine bearer token.' },
  engine_unavailable: { status: 503, message: 'The loyalty engine cannot serve right now; nothing was committed.' },
} as const satisfies Record<string, ErrorEntry>;

/** A coded failure, thrown anywhere and rendered once by the gateway's error handler. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    options: { message?: string; fields?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const entry: ErrorEntry = ERRORS[code];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.statusCode = entry.status;
    this.fields = options.fields;
    this.headers = entry.headers || options.headers ? { ...entry.headers, ...options.headers } : undefined;
  }
}

/** A business refusal or fault reported by the loyalty engine (same table, same rendering). */
export class EngineError extends GatewayError {
  /** `fields` where the refusal names request fields (a catalog snapshot's duplicate ids...). */
  constructor(code: ErrorCode, message?: string, fields?: FieldError[]) {
    super(code, { ...(message === undefined ? {} : { message }), ...(fields ? { fields } : {}) });
    this.name = 'EngineError';
  }
}

/**
 * The engine gave no answer: it could not be reached, refused to commit past the call's deadline
 * (then nothing was committed), or its answer was lost at the deadline (then the outcome is
 * unknown: rare, see docs/engine-service.md). Callers retry idempotently; the ledger dedupes.
 */
export class EngineUnavailableError extends GatewayError {
  constructor(message?: string, cause?: unknown) {
    super('engine_unavailable', { ...(message === undefined ? {} : { message }), cause });
    this.name = 'EngineUnavailableError';
  }
}
