import type { FastifyInstance } from 'fastify';
import '../http/fastify-types.js';
import { earnedOf, tallyEarned } from './earned-tally.js';
import { readEnvelope } from './read-envelope.js';
import { webhookResultJsonSchema } from './webhook-result-schema.js';
import { ignoredUnknownType, webhookOutcome } from './webhook-results.js';
import type { WebhookPipeline } from './webhook-pipeline.js';

const AUDIT_MAX = 255;
const clip = (value: string) => (value.length > AUDIT_MAX ? value.slice(0, AUDIT_MAX) : value);

/** POST /webhooks/generic: the canonical envelope, on the v1-signed scope (its auth hooks run before this handler). */
export function registerGenericWebhook(signed: FastifyInstance, pipeline: WebhookPipeline): void {
  signed.post('/webhooks/generic', { schema: { response: { 200: webhookResultJsonSchema } } }, async (request) => {
    const read = readEnvelope(request.body);
    if (read.kind === 'unknown-event-type') {
      request.audit = { eventType: clip(read.eventType), outcome: 'ignored' };
      return ignoredUnknownType(read.eventType);
    }
    const { envelope } = read;
    request.audit = {
      eventType: envelope.eventType,
      eventId: envelope.eventId,
      transactionId: envelope.transaction.id,
      refundId: envelope.eventType === 'sale.refunded' ? envelope.refund.id : undefined,
    };
    const result = await pipeline(request.connection!, envelope);
    request.audit.outcome = webhookOutcome(result);
    request.audit.warning = result.warning;
    request.audit.earned = tallyEarned([earnedOf(envelope, result)]);
    return result;
  });
}
