import { randomUUID } from 'node:crypto';
import { sampleSale, type SampleSaleOptions } from '../sample-sale.js';
import type { SendSignedResult } from '../send-signed.js';

/** What a check may do: send a body signed as the vendor would (or deliberately not), or GET a path. */
export interface CertificationClient {
  /** Signed to /webhooks/generic, or to `path` (the earn preview). */
  send(body: unknown, options?: { secret?: string; nowSeconds?: number; raw?: string; path?: string }): Promise<SendSignedResult>;
  get(path: string): Promise<{ status: number; body: string }>;
  storeId: string;
  customer: SampleSaleOptions['customer'];
}

export interface CheckOutcome {
  ok: boolean;
  /** What came back, for the report: status, code or outcome, request id. */
  detail: string;
}

export interface CertificationCheck {
  name: string;
  /** The spec's rule being checked, shown on failure. */
  expect: string;
  run(client: CertificationClient, state: Map<string, unknown>): Promise<CheckOutcome>;
}

type Answer = SendSignedResult & { body: Record<string, unknown> | unknown };

/** The first signed check: a no-op that proves the credentials (certify stops after it when they are refused). */
export const CONNECTION_TEST = 'connection test: sale.voided is accepted and ignored';

const field = (answer: Answer, name: string): unknown =>
  answer.body !== null && typeof answer.body === 'object' ? (answer.body as Record<string, unknown>)[name] : undefined;

const summary = (answer: Answer): string => {
  const code = field(answer, 'code') ?? field(answer, 'status');
  return `HTTP ${answer.status}${code === undefined ? '' : ` ${String(code)}`}${answer.requestId ? ` (request ${answer.requestId})` : ''}`;
};

/** The answer has this status and this `status` (200s) or `code` (errors). */
const expectAnswer =
  (status: number, outcome: string) =>
  (answer: Answer): CheckOutcome => ({
    ok: answer.status === status && field(answer, status === 200 ? 'status' : 'code') === outcome,
    detail: summary(answer),
  });

const saleOf = (client: CertificationClient, transactionId: string) =>
  sampleSale({ storeId: client.storeId, customer: client.customer, transactionId });

const refundOf = (client: CertificationClient, transactionId: string, refundId: string, amount: number) => ({
  eventId: `${refundId}:refunded`,
  eventType: 'sale.refunded',
  occurredAt: new Date().toISOString(),
  store: { id: client.storeId },
  transaction: { id: transactionId, currency: 'USD' },
  refund: { id: refundId, amount },
});

const newId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** The earn preview: what a sale would do, nothing committed (an extension of the partner API). */
const PREVIEW = '/v1/earn/preview';

/**
 * The generic tier's behaviour a vendor integration must handle, in the order a vendor meets it.
 * Every sale uses a fresh transaction id, so a run can be repeated; without a customer they are
 * walk-ins and earn nothing.
 */
export const CERTIFICATION_CHECKS: readonly CertificationCheck[] = [
  {
    name: 'the gateway is reachable',
    expect: 'GET /health answers 200',
    run: async (client) => {
      const answer = await client.get('/health');
      return { ok: answer.status === 200, detail: `HTTP ${answer.status}` };
    },
  },
  {
    name: CONNECTION_TEST,
    expect: '200 ignored (changes nothing)',
    run: async (client) =>
      expectAnswer(200, 'ignored')(await client.send({ ...saleOf(client, newId('CERT-VOID')), eventType: 'sale.voided' })),
  },
  {
    name: 'a wrong signature is refused',
    expect: '401 bad_signature',
    run: async (client) =>
      expectAnswer(401, 'bad_signature')(await client.send(saleOf(client, newId('CERT-SIG')), { secret: `not-${randomUUID()}` })),
  },
  {
    name: 'a timestamp ten minutes old is refused',
    expect: '401 stale_timestamp (keep your clock within 300 s)',
    run: async (client) =>
      expectAnswer(
        401,
        'stale_timestamp',
      )(await client.send(saleOf(client, newId('CERT-OLD')), { nowSeconds: Math.floor(Date.now() / 1000) - 600 })),
  },
  {
    name: 'a sale previewed first is answered and not recorded',
    expect: '200 would_process from POST /v1/earn/preview (nothing committed)',
    run: async (client, state) => {
      const sale = saleOf(client, newId('CERT-SALE'));
      state.set('sale', sale);
      const answer = await client.send(sale, { path: PREVIEW });
      state.set('previewedPoints', field(answer, 'pointsEarned'));
      const outcome = expectAnswer(200, 'would_process')(answer);
      return { ...outcome, detail: `${outcome.detail}, would earn ${String(field(answer, 'pointsEarned'))} points` };
    },
  },
  {
    name: 'a finalised sale is processed, earning what its preview said',
    expect: "200 processed (not duplicate: the preview recorded nothing), with the preview's points",
    run: async (client, state) => {
      const answer = await client.send(state.get('sale'));
      const outcome = expectAnswer(200, 'processed')(answer);
      const previewed = state.get('previewedPoints');
      return {
        ok: outcome.ok && field(answer, 'pointsEarned') === previewed,
        detail: `${outcome.detail}, ${String(field(answer, 'pointsEarned'))} points (previewed ${String(previewed)})${field(answer, 'warning') ? `, warning: ${String(field(answer, 'warning'))}` : ''}`,
      };
    },
  },
  {
    name: 'the same sale sent again earns nothing',
    expect: '200 duplicate (idempotent on transaction.id)',
    run: async (client, state) => expectAnswer(200, 'duplicate')(await client.send(state.get('sale'))),
  },
  {
    name: 'a preview of the recorded sale says it would be a duplicate',
    expect: '200 would_be_duplicate',
    run: async (client, state) => expectAnswer(200, 'would_be_duplicate')(await client.send(state.get('sale'), { path: PREVIEW })),
  },
  {
    name: 'the same transaction under a new eventId earns nothing',
    expect: '200 duplicate',
    run: async (client, state) => {
      const sale = state.get('sale') as ReturnType<typeof sampleSale>;
      return expectAnswer(200, 'duplicate')(await client.send({ ...sale, eventId: `${sale.eventId}:resent` }));
    },
  },
  {
    name: 'a partial refund of that sale is processed',
    expect: '200 processed',
    run: async (client, state) => {
      const sale = state.get('sale') as ReturnType<typeof sampleSale>;
      const refund = refundOf(client, sale.transaction.id, newId('CERT-REFUND'), 5);
      state.set('refund', refund);
      const answer = await client.send(refund);
      const outcome = expectAnswer(200, 'processed')(answer);
      return { ...outcome, detail: `${outcome.detail}, ${String(field(answer, 'pointsReversed'))} points reversed` };
    },
  },
  {
    name: 'the same refund sent again reverses nothing',
    expect: '200 duplicate (idempotent on refund.id)',
    run: async (client, state) => expectAnswer(200, 'duplicate')(await client.send(state.get('refund'))),
  },
  {
    name: 'store.id must equal the X-Service-Store header',
    expect: '400 store_mismatch',
    run: async (client) => {
      const sale = saleOf(client, newId('CERT-STORE'));
      return expectAnswer(400, 'store_mismatch')(await client.send({ ...sale, store: { id: `${client.storeId}-other` } }));
    },
  },
  {
    name: 'an unknown field is refused with its path',
    expect: '422 validation_failed naming transaction.tip',
    run: async (client) => {
      const sale = saleOf(client, newId('CERT-FIELD'));
      const answer = await client.send({ ...sale, transaction: { ...sale.transaction, tip: 1 } });
      const fields = field(answer, 'fields');
      const named = Array.isArray(fields) && fields.some((f: { path?: unknown }) => f.path === 'transaction.tip');
      return { ok: expectAnswer(422, 'validation_failed')(answer).ok && named, detail: summary(answer) };
    },
  },
  {
    name: 'malformed JSON is refused',
    expect: '400 malformed_json',
    run: async (client) => expectAnswer(400, 'malformed_json')(await client.send(null, { raw: '{"eventId": ' })),
  },
  {
    name: 'an event type the gateway does not know is accepted and ignored',
    expect: '200 ignored (do not retry)',
    run: async (client) =>
      expectAnswer(200, 'ignored')(await client.send({ ...saleOf(client, newId('CERT-TYPE')), eventType: 'sale.parked' })),
  },
];
