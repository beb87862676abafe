import { CatalogSyncResult, EligibilityResult, RedeemResult, RefundResult } from '@loyalty-gateway/core';
import { responseJsonSchema } from '../http/response-json-schema.js';

/**
 * The four checkout results' JSON schemas, for the 200 response only (Fastify compiles each once
 * with fast-json-stringify; zod, not ajv, validates requests), derived from core's zod schemas.
 */
export const eligibilityResultJsonSchema = responseJsonSchema(EligibilityResult);
export const redeemResultJsonSchema = responseJsonSchema(RedeemResult);
export const refundResultJsonSchema = responseJsonSchema(RefundResult);
export const catalogSyncResultJsonSchema = responseJsonSchema(CatalogSyncResult);
