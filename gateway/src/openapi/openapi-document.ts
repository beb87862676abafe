// One file: most of it is the table of operations, one row per route, read beside the few functions that turn a row into the document.
import { ERRORS, TIMESTAMP_TOLERANCE_SECONDS, type ErrorCode } from '@loyalty-gateway/core';
import { BODY_LIMIT } from '../http/body-limit.js';
import { componentSchemas, type ComponentName } from './component-schemas.js';

type JsonObject = Record<string, unknown>;

interface Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Signed with the four X-Service-* headers (every route but the probes). */
  signed: boolean;
  /** The operator's admin API: a bearer token (GATEWAY_ADMIN_TOKEN) instead of the vendor's signature. */
  admin?: boolean;
  /** `x-status: coming`: final shape, off in production unless GATEWAY_FEATURES lists it. */
  coming?: boolean;
  /** `x-extension: true`: the gateway's addition beside the partner API's specified endpoints (docs/decisions.md). */
  extension?: boolean;
  /** Query parameters (a GET's filters). */
  query?: readonly JsonObject[];
  request?: ComponentName;
  response: ComponentName | 'text' | 'vendor';
  errors: readonly ErrorCode[];
}

/** A query parameter: a string in the URL, its meaning, and its pattern when it has one. */
const queryParameter = (name: string, description: string, schema: JsonObject = { type: 'string' }): JsonObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const AUTH_ERRORS = ['bad_signature', 'stale_timestamp', 'unknown_connection'] as const;
const BODY_ERRORS = [
  'malformed_json',
  'malformed_body',
  'unsupported_media_type',
  'missing_field',
  'payload_too_large',
  'validation_failed',
  'rate_limited',
  'internal_error',
] as const;
const COMING_ERRORS = [...AUTH_ERRORS, ...BODY_ERRORS, 'endpoint_not_enabled', 'engine_unavailable'] as const;

const OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/webhooks/generic',
    operationId: 'postGenericWebhook',
    signed: true,
    summary: 'Earn or reverse loyalty for a finalised sale or refund (generic tier)',
    description:
      'Send once per finalised, paid sale. Idempotent on `transaction.id` (and `refund.id` for reversals), scoped to vendor and store: ' +
      'a 24-hour gateway cache and, permanently, the loyalty ledger. `eventId` collapses your own retries. Business outcomes are 200 ' +
      '(`processed`, `duplicate`, `ignored`: stop retrying); an `eventType` the gateway does not know is 200 `ignored`. ' +
      'Retry a 500 with the backoff 1 s, 5 s, 30 s, 2 min, 10 min, 1 h, then dead-letter.',
    request: 'Envelope',
    response: 'WebhookResult',
    errors: [...AUTH_ERRORS, ...BODY_ERRORS, 'store_mismatch', 'refund_id_reused', 'currency_mismatch', 'engine_unavailable_retry'],
  },
  {
    method: 'post',
    path: '/v1/earn/preview',
    operationId: 'postEarnPreview',
    signed: true,
    extension: true,
    summary: 'What a sale would do now, nothing committed (an extension: enabled in every environment)',
    description:
      'The envelope of `POST /webhooks/generic`, signed and validated exactly as there (the same refusals, codes and `fields`), answered with ' +
      "what it would do now: `would_process` with the points and each stamp card's progress, `would_be_duplicate` (with the conflict's " +
      'warning when the transaction id was recorded with another sale), `ignored` (a void, an unknown event type) or `not_previewed` ' +
      '(a refund). Nothing is committed: no ledger row, no idempotency key, no counter. A preview, not a promise: the sale earns what the ' +
      'ledger says when it is sent. Its own rate-limit budget per store (`GATEWAY_PREVIEW_RATE_LIMIT`). Journalled as a preview.',
    request: 'Envelope',
    response: 'EarnPreview',
    errors: [...AUTH_ERRORS, ...BODY_ERRORS, 'store_mismatch', 'engine_unavailable_retry'],
  },
  {
    method: 'get',
    path: '/v1/deliveries',
    operationId: 'getDeliveries',
    signed: true,
    extension: true,
    summary: "The store's own delivery log: what the gateway received from this connection and how it answered (an extension)",
    description:
      'Newest first; only the entries of the connection the signature proves, whatever the query. Signed like every request: ' +
      '`v1=` + base64(HMAC-SHA256(timestamp + "." + the empty body, connection secret)), a GET having no body; the query string is not ' +
      'signed. Never a body, header or internal cause. A page filtered by `status` examines at most 5,000 entries: it may hold fewer ' +
      'than `limit` (even none) with a `nextCursor` that searches on. Not journalled itself; its own rate-limit budget per store ' +
      '(`GATEWAY_DELIVERY_LOG_RATE_LIMIT`). 404 `endpoint_not_enabled` when the gateway keeps no journal.',
    query: [
      queryParameter('since', 'Entries received at or after this time (ISO 8601 with an offset).', { type: 'string', format: 'date-time' }),
      queryParameter('until', 'Entries received before this time (ISO 8601 with an offset).', { type: 'string', format: 'date-time' }),
      queryParameter('status', 'Entries answered with this HTTP status.', { type: 'string', pattern: '^[1-5]\\d\\d$' }),
      queryParameter('transactionId', 'Entries of this transaction id.', { type: 'string', maxLength: 255 }),
      queryParameter('limit', 'Entries a page holds (1 to 100, default 20).', { type: 'string', pattern: '^\\d{1,3}$' }),
      queryParameter('cursor', "The previous page's `nextCursor`, with the same filters.", { type: 'string', maxLength: 512 }),
    ],
    response: 'DeliveryLogPage',
    errors: [...AUTH_ERRORS, 'validation_failed', 'rate_limited', 'internal_error', 'endpoint_not_enabled'],
  },
  {
    method: 'post',
    path: '/v1/redemption/eligibility',
    operationId: 'postEligibility',
    signed: true,
    coming: true,
    summary: 'List the rewards a customer can redeem now (read-only; safe on every cart change)',
    description:
      'A customer who is not a member is 200 with an empty `membershipId` and a `warning`. An ineligible reward carries `eligible: false` and a `reason` to display.',
    request: 'EligibilityRequest',
    response: 'EligibilityResult',
    errors: COMING_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/redemption/redeem',
    operationId: 'postRedeem',
    signed: true,
    coming: true,
    summary: 'Redeem a reward or points at payment success (no reserve/hold)',
    description:
      'Exactly one of `rewardId` / `pointsToRedeem`. Idempotent per (`externalTransactionId`, reward): an identical retry is 200 ' +
      '`ALREADY_PROCESSED` with the original figures and deducts nothing; the same order and reward with a different payload is 409. ' +
      'Show a 400 `message` to the cashier verbatim.',
    request: 'RedeemRequest',
    response: 'RedeemResult',
    errors: [
      ...COMING_ERRORS,
      'selector_required',
      'not_eligible',
      'insufficient_points',
      'minimum_spend_not_met',
      'reward_not_found',
      'redemption_reversed',
      'member_not_found',
      'already_redeemed',
      'redemption_in_progress',
    ],
  },
  {
    method: 'post',
    path: '/v1/refund',
    operationId: 'postRefund',
    signed: true,
    coming: true,
    summary: "Reverse a sale's loyalty (equivalent to a sale.refunded webhook)",
    description:
      "Reverses earned points (in proportion to `refundAmount`, cumulative across partial refunds) and re-credits points redeemed against the sale. Idempotent on `refundTransactionId`, which shares one space with the webhook's `refund.id`.",
    request: 'RefundRequest',
    response: 'RefundResult',
    errors: [...COMING_ERRORS, 'refund_id_reused'],
  },
  {
    method: 'post',
    path: '/v1/catalog/sync',
    operationId: 'postCatalogSync',
    signed: true,
    coming: true,
    summary: 'Push the full item catalog of one store (full snapshot)',
    description:
      'Items absent from the snapshot become inactive, never deleted. `store.id` must equal the X-Service-Store header. Generic vendors only: a featured vendor whose catalog the operator pulls is refused (`catalog_pulled`).',
    request: 'CatalogSyncRequest',
    response: 'CatalogSyncResult',
    errors: [...COMING_ERRORS, 'store_mismatch', 'catalog_pulled'],
  },
  {
    method: 'post',
    path: '/webhooks/{slug}',
    operationId: 'postFeaturedWebhook',
    signed: false,
    summary: "A featured vendor's native webhook",
    description:
      "One per featured vendor, accepting that vendor's own payload and authentication (HMAC, static header or mTLS) as its adapter " +
      'declares; not the X-Service-* headers. The answer is the one the vendor expects. See docs/featured-vendors.md.',
    response: 'vendor',
    errors: [
      'invalid_native_payload',
      'bad_signature',
      'stale_timestamp',
      'unknown_connection',
      'vendor_not_featured',
      'payload_too_large',
      'internal_error',
      'engine_unavailable_retry',
      'vendor_api_unavailable',
    ],
  },
  {
    method: 'post',
    path: '/admin/adapters/{slug}/preview',
    operationId: 'postAdapterPreview',
    signed: false,
    admin: true,
    extension: true,
    summary: "The operator's preview of a native payload through a featured adapter, nothing committed (admin API)",
    description:
      "A vendor's payload (as JSON, or its exact text) and the headers it would send, read and mapped by the adapter as its webhook " +
      'would (its authentication skipped), every canonical envelope previewed as `POST /v1/earn/preview` previews a sale. Fetch-back ' +
      "calls the vendor's API only with `fetchBack: true`, with the connection's credentials; otherwise a unit that needs one says which " +
      'call it would make. `store` maps every unit for that connection. Needs `Authorization: Bearer <GATEWAY_ADMIN_TOKEN>`; not for vendors.',
    request: 'AdapterPreviewRequest',
    response: 'AdapterPreview',
    errors: [
      'admin_unauthorized',
      'malformed_json',
      'unsupported_media_type',
      'payload_too_large',
      'validation_failed',
      'invalid_native_payload',
      'invalid_settings',
      'adapter_not_found',
      'connection_not_found',
      'internal_error',
    ],
  },
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    signed: false,
    summary: 'Liveness probe (network and TLS reachability)',
    description: 'No authentication. `ok` as text/plain.',
    response: 'text',
    errors: [],
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject) => ({ 'application/json': { schema } });

/** One response per status, naming each code the operation can answer with it. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const responses: Record<string, JsonObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const lines = list.map((code) => `- \`${code}\`: ${ERRORS[code].message}`).join('\n');
    const response: JsonObject = {
      description: `Error (\`code\`):\n${lines}`,
      headers: { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } },
      content: json(ref('Error')),
    };
    if (status === 429 || list.includes('engine_unavailable_retry')) {
      (response.headers as JsonObject)['Retry-After'] = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };
    }
    responses[String(status)] = response;
  }
  return responses;
}

function success(operation: Operation): JsonObject {
  if (operation.response === 'text') return { description: 'Alive.', content: { 'text/plain': { schema: { type: 'string' } } } };
  if (operation.response === 'vendor') return { description: 'Accepted; the body is what the vendor expects (often empty).' };
  return {
    description: 'OK',
    headers: { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } },
    content: json(ref(operation.response)),
  };
}

function operationObject(operation: Operation): JsonObject {
  const parameters: JsonObject[] = operation.path.includes('{slug}')
    ? [{ name: 'slug', in: 'path', required: true, description: "The featured vendor's slug.", schema: { type: 'string' } }]
    : [];
  if (operation.signed) for (const name of SIGNED_HEADERS) parameters.push({ $ref: `#/components/parameters/${name}` });
  if (operation.method === 'post' || operation.signed) parameters.push({ $ref: '#/components/parameters/X-Request-ID' });
  parameters.push(...(operation.query ?? []));
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    ...(operation.coming ? { 'x-status': 'coming' } : {}),
    ...(operation.extension ? { 'x-extension': true } : {}),
    ...(operation.signed ? { security: [{ v1Signature: [] }] } : operation.admin ? { security: [{ adminToken: [] }] } : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.request ? { requestBody: { required: true, content: json(ref(operation.request)) } } : {}),
    responses: { '200': success(operation), ...errorResponses(operation.errors) },
  };
}

const SIGNED_HEADERS = ['X-Service-Vendor', 'X-Service-Store', 'X-Service-Timestamp', 'X-Service-Signature'] as const;

const header = (name: string, description: string, pattern?: string): JsonObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', ...(pattern ? { pattern } : {}) },
});

/** The partner API as an OpenAPI 3.1 document, built from the zod schemas and the error table. */
export function openApiDocument(): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const operation of OPERATIONS) paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty Integration Gateway: partner API',
      version: '1.0.0',
      description:
        'Vendors send finalised sales and refunds and call the checkout endpoints; every request but GET /health carries the four ' +
        'X-Service-* headers. Signature: `v1=` + base64(HMAC-SHA256(X-Service-Timestamp + "." + the exact raw body bytes, connection secret)); ' +
        `the timestamp must be within ${TIMESTAMP_TOLERANCE_SECONDS} s of server time. Bodies are JSON of at most ${BODY_LIMIT} bytes; ` +
        'unknown fields fail validation (422). Endpoints marked `x-status: coming` have final shapes and are not enabled in production. ' +
        "Operations marked `x-extension: true` are the gateway's additions beside the specified endpoints (the earn preview, the store's " +
        "own delivery log, the operator's adapter preview); the specified endpoints are unchanged by them.",
    },
    servers: [
      {
        url: '{base_url}',
        variables: {
          base_url: { default: 'http://127.0.0.1:3000', description: 'UAT, Beta or Production address, issued per environment.' },
        },
      },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      parameters: {
        'X-Service-Vendor': header('X-Service-Vendor', 'Vendor slug assigned at onboarding (lowercase, permanent).'),
        'X-Service-Store': header('X-Service-Store', 'The store id exactly as the merchant entered it (spaces, slashes and case matter).'),
        'X-Service-Timestamp': header('X-Service-Timestamp', 'Unix epoch seconds at signing time, decimal.', '^\\d{1,12}$'),
        'X-Service-Signature': header(
          'X-Service-Signature',
          '`v1=` + base64(HMAC-SHA256(timestamp + "." + raw body, connection secret)).',
          '^v1=[A-Za-z0-9+/]{43}=$',
        ),
        'X-Request-ID': {
          name: 'X-Request-ID',
          in: 'header',
          required: false,
          description:
            'Your trace id (printable ASCII, at most 128 characters); echoed in the answer and in every Error body. One is generated otherwise.',
          schema: { type: 'string', maxLength: 128 },
        },
      },
      headers: {
        'X-Request-ID': { description: 'The request id (yours, or generated): quote it to support.', schema: { type: 'string' } },
      },
      securitySchemes: {
        v1Signature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Signature',
          description: 'With X-Service-Vendor, X-Service-Store and X-Service-Timestamp: see the description above.',
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The operator's GATEWAY_ADMIN_TOKEN (the admin API; never a vendor's).",
        },
      },
    },
  };
}
