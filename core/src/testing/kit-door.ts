import { GatewayError } from '../errors.js';
import type { AnyAdapter, MapResult } from '../adapter/define-adapter.js';
import type { NativeRequest } from '../adapter/native-request.js';
import { readNativeRequest, type RequestAuth } from '../adapter/read-native-request.js';
import { noStoreOutcome, resolveUnits } from '../adapter/resolve-units.js';
import { answerContentType, vendorAnswer, type FeaturedResult, type Handshake } from '../adapter/vendor-answer.js';
import { FeaturedEnvelope } from '../schemas/featured-envelope.js';

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
  envelopes: FeaturedEnvelope[];
}

export interface KitDoorDeps {
  adapter: AnyAdapter;
  auth: RequestAuth;
  /** The connection secret, for per-connection schemes. */
  connectionSecret: string | undefined;
  now(): Date;
  map(unit: unknown, storeId: string, request: NativeRequest): Promise<MapResult>;
}

const failure = (error: GatewayError): KitResponse => ({
  statusCode: error.statusCode,
  code: error.code,
  message: error.message,
  handshake: null,
  envelopes: [],
});

function answered(
  deps: KitDoorDeps,
  outcome: Parameters<typeof vendorAnswer>[1],
  request: NativeRequest,
  envelopes: FeaturedEnvelope[],
): KitResponse {
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
 * The featured door's steps that belong to the adapter, run by the gateway's own code in its order
 * (core's readNativeRequest and resolveUnits, at one instant; map; strict envelope validation; the
 * declared answer). Every store of the request is the kit's one active connection, holding
 * `connectionSecret`; every envelope is treated as `processed` by an engine that earns nothing.
 * Coded failures come back as their HTTP status and code, as the gateway would send them.
 */
export async function kitPost(deps: KitDoorDeps, request: NativeRequest): Promise<KitResponse> {
  try {
    const now = deps.now();
    const reading = readNativeRequest(deps.adapter, deps.auth, request, now);
    if (reading.kind === 'handshake') return answered(deps, { kind: 'handshake', handshake: reading.handshake }, request, []);
    if (reading.units.length === 0) return answered(deps, { kind: 'accepted', outcome: noStoreOutcome() }, request, []);
    const connection = { active: true, secrets: deps.connectionSecret ? [deps.connectionSecret] : [] };
    const { resolved, skipped } = await resolveUnits(
      { adapter: deps.adapter, auth: deps.auth, request, now, find: () => Promise.resolve(connection) },
      reading,
    );
    const envelopes: FeaturedEnvelope[] = [];
    const notes: string[] = [];
    for (const { storeId, unit } of resolved) {
      const mapped = await deps.map(unit, storeId, request);
      envelopes.push(...mapped.envelopes.map((e) => FeaturedEnvelope.parse(e)));
      if (mapped.note) notes.push(mapped.note);
    }
    const results: FeaturedResult[] = envelopes.map((e) => ({
      storeId: e.store.id,
      eventId: e.eventId,
      eventType: e.eventType,
      transactionId: e.transaction.id,
      ...(e.eventType === 'sale.refunded' ? { refundId: e.refund.id } : {}),
      status: 'processed',
      membershipId: '',
      pointsEarned: 0,
      stampsUpdated: [],
      warning: null,
    }));
    return answered(deps, { kind: 'accepted', outcome: { status: 'accepted', results, skipped, notes } }, request, envelopes);
  } catch (error) {
    if (error instanceof GatewayError) return failure(error);
    throw error;
  }
}
