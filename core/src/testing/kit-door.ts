import { GatewayError } from '../errors.js';
import { AuthRefusal } from '../adapter/auth/auth-refusal.js';
import { authenticate } from '../adapter/auth/authenticate.js';
import type { AnyAdapter, MapResult, WebhookUnit } from '../adapter/define-adapter.js';
import type { NativeRequest } from '../adapter/native-request.js';
import { readNativeRequest, type RequestAuth } from '../adapter/read-native-request.js';
import { answerContentType, vendorAnswer, type AcceptedOutcome, type FeaturedResult, type Handshake, type SkippedUnit } from '../adapter/vendor-answer.js';
import { Envelope } from '../schemas/envelope.js';

/** What the featured door would answer, without the gateway: status, code, content type, body. */
export interface KitResponse {
  statusCode: number;
  /** The Error body's code on failure (`bad_signature`, `invalid_native_payload`…). */
  code?: string;
  message?: string;
  contentType?: string;
  /** The success body as the vendor receives it (JSON parsed back when it is JSON). */
  body?: unknown;
  handshake: Handshake | null;
  envelopes: Envelope[];
}

export interface KitDoorDeps {
  adapter: AnyAdapter;
  auth: RequestAuth;
  /** The connection secret, for per-connection schemes. */
  connectionSecret: string | undefined;
  now(): Date;
  map(unit: unknown, storeId: string, request: NativeRequest): Promise<MapResult>;
}

const failure = (error: GatewayError): KitResponse => ({ statusCode: error.statusCode, code: error.code, message: error.message, handshake: null, envelopes: [] });

/** Per-connection schemes: every store of the request is checked with the kit's one connection secret. */
function perConnection(deps: KitDoorDeps, units: WebhookUnit<unknown>[], request: NativeRequest) {
  const skipped: SkippedUnit[] = [];
  const kept = units.filter((u) => {
    if (deps.auth.secrets !== 'per-connection') return true;
    const check = authenticate(deps.auth.scheme, deps.connectionSecret ? [deps.connectionSecret] : [], request, deps.now());
    if (!check.ok) skipped.push({ storeId: u.storeId, reason: check.reason === 'stale_timestamp' ? 'stale_timestamp' : 'bad_signature' });
    return check.ok;
  });
  if (kept.length === 0 && units.length > 0) throw new AuthRefusal('bad_signature', 'no store verified');
  return { kept, skipped };
}

function answered(deps: KitDoorDeps, outcome: Parameters<typeof vendorAnswer>[1], request: NativeRequest, envelopes: Envelope[]): KitResponse {
  const answer = vendorAnswer(deps.adapter.response, outcome, request);
  const contentType = answerContentType(answer);
  const raw = answer.body;
  const body = raw === undefined || typeof raw === 'string' || Buffer.isBuffer(raw) ? raw : JSON.parse(JSON.stringify(raw));
  return {
    statusCode: answer.status,
    ...(contentType ? { contentType } : {}),
    ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body.toString('utf8') : body }),
    handshake: outcome.kind === 'handshake' ? outcome.handshake : null,
    envelopes,
  };
}

/**
 * The featured door's steps that belong to the adapter, in the gateway's order (core's
 * readNativeRequest, per-connection checks, map, strict envelope validation, the declared answer),
 * with every envelope treated as `processed` by an engine that earns nothing. Coded failures come
 * back as their HTTP status and code, as the gateway would send them.
 */
export async function kitPost(deps: KitDoorDeps, request: NativeRequest): Promise<KitResponse> {
  try {
    const reading = readNativeRequest(deps.adapter, deps.auth, request, deps.now());
    if (reading.kind === 'handshake') return answered(deps, { kind: 'handshake', handshake: reading.handshake }, request, []);
    const { kept, skipped } = perConnection(deps, reading.units, request);
    skipped.unshift(...reading.unreadable.map((u): SkippedUnit => ({ storeId: u.storeId, reason: 'unreadable', detail: u.unreadable })));
    const envelopes: Envelope[] = [];
    const notes: string[] = [];
    for (const { storeId, unit } of kept) {
      const mapped = await deps.map(unit, storeId, request);
      envelopes.push(...mapped.envelopes.map((e) => Envelope.parse(e)));
      if (mapped.note) notes.push(mapped.note);
    }
    const results: FeaturedResult[] = envelopes.map((e) => ({
      storeId: e.store.id, eventId: e.eventId, eventType: e.eventType, transactionId: e.transaction.id,
      ...(e.eventType === 'sale.refunded' ? { refundId: e.refund.id } : {}),
      status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null,
    }));
    const outcome: AcceptedOutcome = reading.units.length + reading.unreadable.length === 0 ? { status: 'accepted', results: [], skipped: [], notes: ['The request concerns no store: nothing to do.'] } : { status: 'accepted', results, skipped, notes };
    return answered(deps, { kind: 'accepted', outcome }, request, envelopes);
  } catch (error) {
    if (error instanceof GatewayError) return failure(error);
    throw error;
  }
}
