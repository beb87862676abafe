import { EarnPreview } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import '../http/fastify-types.js';
import { responseJsonSchema } from '../http/response-json-schema.js';
import { earnPreviewOf } from './earn-preview-of.js';
import { readEnvelope } from './read-envelope.js';
import { ignoredUnknownType } from './webhook-results.js';
import type { WebhookPipeline } from './webhook-pipeline.js';

/** Previews per minute per connection by default (GATEWAY_PREVIEW_RATE_LIMIT): a budget of their own. */
export const DEFAULT_PREVIEW_RATE_LIMIT = 600;

const AUDIT_MAX = 255;
const clip = (value: string) => (value.length > AUDIT_MAX ? value.slice(0, AUDIT_MAX) : value);

/**
 * POST /v1/earn/preview: what the sale would do now, nothing committed. The generic door's steps
 * exactly — v1 authentication (the signed scope's), readEnvelope, the pipeline (store check, the 24-hour cache read) —
 * with the pipeline in preview mode, so it is refused and answered as an earn would be. Enabled in
 * every environment; counted on a rate-limit budget of its own (a till previewing every sale does
 * not spend the sales' budget); journalled like every /v1 request, its outcome the preview's
 * status, never as points earned.
 */
export function registerEarnPreview(
  signed: FastifyInstance,
  pipeline: WebhookPipeline,
  rateLimit: { max?: number | undefined } = {},
): void {
  signed.post(
    '/v1/earn/preview',
    {
      config: { rateLimit: { max: rateLimit.max ?? DEFAULT_PREVIEW_RATE_LIMIT } },
      schema: { response: { 200: responseJsonSchema(EarnPreview) } },
    },
    async (request) => {
      const read = readEnvelope(request.body);
      if (read.kind === 'unknown-event-type') {
        request.audit = { eventType: clip(read.eventType), outcome: 'ignored' };
        return earnPreviewOf(ignoredUnknownType(read.eventType));
      }
      const { envelope } = read;
      request.audit = {
        eventType: envelope.eventType,
        eventId: envelope.eventId,
        transactionId: envelope.transaction.id,
        refundId: envelope.eventType === 'sale.refunded' ? envelope.refund.id : undefined,
      };
      const preview = earnPreviewOf(await pipeline(request.connection!, envelope, { preview: true }));
      request.audit.outcome = preview.status;
      request.audit.warning = preview.warning;
      return preview;
    },
  );
}
