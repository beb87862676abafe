/**
 * The face of @loyalty-gateway/core: what storage, the engine, the adapters, the gateway, tools and
 * bench use, each name from the file that defines it. Anything else in core is internal; test
 * helpers are under `@loyalty-gateway/core/testing`.
 */

// Money, numbers and text
export { decimalToMinor, fromMinorUnits, MAX_MONEY, NonNegativeMoney, PositiveMoney, toMinorUnits } from './money.js';
export { groupDigits } from './number-text.js';
export { trimTrailingSlashes } from './trim-trailing-slashes.js';
export { uuidV7 } from './uuid-v7.js';

// The coded error table
export {
  ENGINE_SERVICE_ERRORS,
  EngineError,
  EngineUnavailableError,
  ERRORS,
  GatewayError,
  isErrorCode,
  type ErrorCode,
  type ErrorEntry,
} from './errors.js';
export { formatPath, MAX_FIELD_ERRORS, parseOrThrow, toFieldErrors } from './validation.js';

// `v1=` signing
export { AUTH_HEADERS, checkTimestamp, signedHeaders, signV1, TIMESTAMP_TOLERANCE_SECONDS, verifyV1 } from './signing.js';

// The loyalty engine port
export {
  type CatalogSyncCommand,
  type EarnCommand,
  type EarnOutcome,
  type EligibilityCommand,
  type EngineCallOptions,
  type EngineScope,
  type LoyaltyEngine,
  type MerchantSummary,
  type OutletLookup,
  type OutletQuery,
  type RaiseSaleResult,
  type RedeemCommand,
  type ReverseCommand,
  type ReversedOrdersQuery,
  type SaleLine,
  type WithdrawRefundsCommand,
  type WithdrawRefundsResult,
} from './engine-port.js';

// Store ports
export { type Connection, type ConnectionStore, type IdempotencyCache } from './stores.js';

// Idempotency
export { saleFingerprint } from './idempotency/sale-fingerprint.js';

// Canonical schemas (zod, strict)
export {
  Currency,
  CustomerIdentifier,
  DateTime,
  id,
  isKeyableId,
  isStorableText,
  NOT_STORABLE,
  operatorId,
  operatorName,
  searchId,
  Store,
  toNfc,
  toStorableText,
  vendorText,
} from './schemas/common.js';
export { hiddenCharacterProblem } from './schemas/hidden-character.js';
export { lookAlikeDifference, lookAlikeKey } from './schemas/look-alike-key.js';
export {
  DiscountCode,
  Envelope,
  isKnownEventType,
  Item,
  parseEnvelope,
  Refund,
  RefundedTransaction,
  SaleCompletedEnvelope,
  SaleRefundedEnvelope,
  SaleVoidedEnvelope,
  StampUpdate,
  Transaction,
  WebhookResult,
} from './schemas/envelope.js';
export { FeaturedEnvelope, RefundsListedEnvelope } from './schemas/featured-envelope.js';
export { EarnPreview, EarnPreviewStatus } from './schemas/earn-preview.js';
export { DeliveryLogEntry, DeliveryLogPage, DeliveryLogQuery } from './schemas/delivery-log.js';
export { AdapterPreview, AdapterPreviewRequest, PreviewedEvent, PreviewedUnit } from './schemas/adapter-preview.js';
export {
  EligibilityRequest,
  EligibilityResult,
  EligibleReward,
  RedeemRequest,
  RedeemResult,
  RefundRequest,
  RefundResult,
  RewardType,
} from './schemas/checkout.js';
export { CatalogItem, CatalogSyncRequest, CatalogSyncResult } from './schemas/catalog.js';
export { ErrorBody, FieldError } from './schemas/error.js';
export { JsonObject } from './schemas/json-object.js';

// The adapter SDK: defining an adapter, its auth schemes, reading native requests, calling vendor APIs
export { type NativeRequest, type PeerCertificateInfo } from './adapter/native-request.js';
export { AuthScheme, type AuthSchemeInput } from './adapter/auth/scheme.js';
export { constantTimeEqual } from './adapter/auth/constant-time.js';
export { hmacHeaderValue } from './adapter/auth/verify-hmac.js';
export { secretsFromSettings } from './adapter/auth/authenticate.js';
export { AuthRefusal } from './adapter/auth/auth-refusal.js';
export { createHttpClient, fetchFailureReason, VendorApiError, type HttpClient, type HttpResponse } from './adapter/http-client.js';
export { outboundUrlProblem, VendorApiBaseUrl, type OutboundPolicy } from './adapter/outbound-url.js';
export { savedUrlProblems } from './adapter/saved-url-problems.js';
export {
  defineAdapter,
  type AdapterContext,
  type AdapterLogger,
  type AnyAdapter,
  type CatalogPage,
  type MapResult,
  type ReconcilePage,
  type ReconcileWindow,
  type SubscriptionReport,
  type UnreadableUnit,
  type VendorSubscription,
  type WebhookUnit,
} from './adapter/define-adapter.js';
export {
  answerContentType,
  vendorAnswer,
  type AcceptedOutcome,
  type FeaturedResult,
  type Handshake,
  type ResponseSpec,
  type SkippedUnit,
} from './adapter/vendor-answer.js';
export { readNativePayload, readNativeRequest, recogniseUnsignedHandshake, type NativeReading } from './adapter/read-native-request.js';
export { noStoreOutcome, resolveUnits, type ResolvedUnit } from './adapter/resolve-units.js';
export { setupFields } from './adapter/setup-fields.js';
export { setupFormFields, type SetupFormField } from './adapter/setup-form-fields.js';
export { Secret } from './adapter/secret.js';
export { cursorPage, numberedPage, offsetPage } from './adapter/paginate.js';
export { vendorCustomer } from './adapter/customer-contact.js';

// Vendor-call resilience (cockatiel)
export { PULL, VENDOR_CALL, WEBHOOK_FETCH_BACK, type FetchBackBudget } from './resilience/index.js';

// Services: env parsing and the process runner
export {
  commitLanesEnv,
  ConfigError,
  logLevelEnv,
  optionalEnv,
  parseEnv,
  portEnv,
  sqliteCacheMbEnv,
  urlEnv,
  wholeNumberEnv,
} from './service/env-schema.js';
export { runService } from './service/run-service.js';

// Tracing
export {
  annotateSpan,
  inSpan,
  traceIds,
  traceLogFields,
  tracingOn,
  type SpanAttributes,
  type SpanHandle,
  type TraceIds,
} from './tracing/index.js';
export { startTracing, type RunningTracing } from './tracing/index.js';
