import { FeaturedEnvelope, GatewayError, VendorApiError, formatPath, type AdapterContext } from '@loyalty-gateway/core';
import { noteFailure } from '../journal/failure-cause.js';
import { vendorCallFailure } from '../journal/vendor-call-failure.js';
import { earnedOf, type EarnedEvent } from '../webhooks/earned-tally.js';
import type { PipelineResult } from '../webhooks/webhook-pipeline.js';
import type { DoorDeps, FeaturedResult, RequestLogger, RequestScope, ResolvedUnit, SkippedUnit } from './featured-types.js';

export interface UnitOutcome {
  results: FeaturedResult[];
  /** What each result's event moved and why a sale earned nothing (the journal, the metric); never in the vendor's answer. */
  earned: EarnedEvent[];
  /** Events the ledger refused (a 4xx of the pipeline): reported in the answer's `skipped`, the rest of the unit still counts. */
  refused: SkippedUnit[];
  note?: string | undefined;
  /** Every envelope the unit mapped to, in order, with the pipeline's answer or the ledger's refusal (the adapter preview shows them all). */
  envelopes: Array<{ envelope: FeaturedEnvelope; result?: PipelineResult; refused?: GatewayError }>;
}

/**
 * An operator-side fault: logged with the adapter's name, answered 500 so the vendor retries later;
 * the journal's story names the step and says what the log says (field paths, never values).
 */
function operatorFault(
  log: RequestLogger,
  context: Record<string, unknown> & { fields?: string[] },
  message: string,
  cause?: unknown,
): GatewayError {
  log.error({ ...context, ...(cause === undefined ? {} : { err: cause }) }, message);
  const fields = context.fields?.length ? `: ${context.fields.slice(0, 5).join('; ')}` : '';
  const failed = cause instanceof Error ? ` (${cause.name})` : '';
  return noteFailure(new GatewayError('internal_error', { cause }), {
    call: `${String(context.adapter)} adapter`,
    what: `${message}${failed}${fields}`,
    ms: null,
  });
}

async function contextFor(deps: DoorDeps, scope: RequestScope, item: ResolvedUnit) {
  const { adapter } = deps;
  const { log } = scope;
  const where = { adapter: adapter.slug, store: item.storeId, connectionId: item.connection.id };
  const raw = await deps.store.getCredentials(item.connection.id);
  const credentials = adapter.credentials.safeParse(raw ?? {});
  if (!credentials.success) {
    const fields = credentials.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw operatorFault(log, { ...where, fields }, 'connection credentials invalid');
  }
  const ctx: AdapterContext<unknown, unknown> = {
    settings: scope.provider.settings,
    credentials: credentials.data,
    storeId: item.storeId,
    http: scope.fetchClient(),
    logger: log.child({ vendor: adapter.slug, store: item.storeId }),
    now: () => new Date(deps.clock()),
  };
  return ctx;
}

/**
 * One unit: map it (fetching back through the adapter's ctx), validate every envelope with the
 * strict canonical schema, then hand each to the shared webhook pipeline (idempotency + engine).
 * A vendor API failure is 503 vendor_api_unavailable (nothing recorded for this unit; the vendor
 * redelivers); an envelope the canonical schema refuses or that names another store is a mapping
 * bug: 500, logged with the adapter's name, never silently dropped.
 */
export async function processUnit(deps: DoorDeps, scope: RequestScope, item: ResolvedUnit): Promise<UnitOutcome> {
  const { adapter } = deps;
  const { log } = scope;
  const where = { adapter: adapter.slug, store: item.storeId, connectionId: item.connection.id };
  // The vendor's API already failed in this request: the redelivery is the retry, not another budget.
  if (scope.vendorFailure) throw scope.vendorFailure;
  const ctx = await contextFor(deps, scope, item);
  let mapped;
  const started = performance.now();
  try {
    mapped = await adapter.map(item.unit, ctx, scope.native);
  } catch (error) {
    if (error instanceof VendorApiError) {
      // The journal's story: which call, what it answered, how long the fetch-back took (noted on the vendor's error, which every unit after this one throws too).
      noteFailure(error, vendorCallFailure(error, performance.now() - started));
      // Retryable (429, 5xx, network) is the vendor's weather; anything else (401/403: this
      // connection's credentials) needs the operator, but is still 503 so no event is lost meanwhile.
      const line = {
        ...where,
        status: error.status,
        url: error.url,
        retryable: error.retryable,
        retryAfterMs: error.retryAfterMs,
        detail: error.message,
      };
      if (error.retryable) log.warn(line, 'vendor API failed during fetch-back; the vendor will redeliver');
      else if (error.status >= 200 && error.status < 300)
        log.error(
          line,
          "vendor API answered what the adapter cannot read (the vendor's API or the adapter changed); the vendor will redeliver",
        );
      else log.error(line, "vendor API refused fetch-back; check this connection's credentials");
      scope.vendorFailure ??= new GatewayError('vendor_api_unavailable', { cause: error });
      throw new GatewayError('vendor_api_unavailable', { cause: error });
    }
    throw operatorFault(log, where, `the ${adapter.slug} adapter failed to map a unit`, error);
  }
  const envelopes: FeaturedEnvelope[] = [];
  for (const [index, candidate] of mapped.envelopes.entries()) {
    const parsed = FeaturedEnvelope.safeParse(candidate);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
      throw operatorFault(log, { ...where, envelope: index, fields }, `the ${adapter.slug} adapter produced an invalid envelope`);
    }
    if (parsed.data.store.id !== item.connection.storeId) {
      throw operatorFault(
        log,
        { ...where, envelopeStore: parsed.data.store.id },
        `the ${adapter.slug} adapter set store.id to another store`,
      );
    }
    envelopes.push(parsed.data);
  }
  const results: FeaturedResult[] = [];
  const earned: EarnedEvent[] = [];
  const refused: SkippedUnit[] = [];
  const handled: UnitOutcome['envelopes'] = [];
  for (const envelope of envelopes) {
    let result;
    try {
      result = await deps.pipeline(item.connection, envelope, {
        raise: adapter.paidOrdersGrow === true,
        featured: true,
        preview: scope.preview,
      });
    } catch (error) {
      // A refusal of the ledger (refund_id_reused, currency_mismatch) is the same on every
      // redelivery: a 4xx would have the vendor retry it, then disable the webhook, holding back the
      // rest of the delivery. It is reported instead, and logged for the operator; 5xx still fail.
      if (!(error instanceof GatewayError) || error.statusCode >= 500) throw error;
      log.warn(
        { ...where, eventType: envelope.eventType, eventId: envelope.eventId, transactionId: envelope.transaction.id, code: error.code },
        `the ledger refused a ${adapter.slug} event: not applied, reported in the answer's skipped (a redelivery cannot change it)`,
      );
      refused.push({ storeId: item.storeId, reason: 'refused', detail: `${error.code}: ${error.message}` });
      handled.push({ envelope, refused: error });
      continue;
    }
    handled.push({ envelope, result });
    // The vendor's own list of reversals, when the ledger already matched it, says nothing new: left out of the answer.
    if (envelope.eventType === 'refunds.listed' && result.status !== 'processed') continue;
    results.push({
      storeId: item.storeId,
      eventId: envelope.eventId,
      eventType: envelope.eventType,
      transactionId: envelope.transaction.id,
      ...(envelope.eventType === 'sale.refunded' ? { refundId: envelope.refund.id } : {}),
      ...result,
    });
    if (envelope.eventType === 'sale.completed' || envelope.eventType === 'sale.refunded') earned.push(earnedOf(envelope, result));
  }
  return { results, earned, refused, note: mapped.note, envelopes: handled };
}
