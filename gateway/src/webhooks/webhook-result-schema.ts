import { WebhookResult } from '@loyalty-gateway/core';
import { responseJsonSchema } from '../http/response-json-schema.js';

/** WebhookResult's JSON schema, for the 200 response only (Fastify compiles it once with fast-json-stringify). */
export const webhookResultJsonSchema = responseJsonSchema(WebhookResult);
