import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import '../http/fastify-types.js';
import { catalogSyncEndpoint } from './catalog-sync-endpoint.js';
import type { CheckoutDeps, CheckoutEndpoint } from './checkout-endpoint.js';
import { isFeatureEnabled, type CheckoutFeature, type GatewayEnvironment } from './checkout-features.js';
import { eligibilityEndpoint } from './eligibility-endpoint.js';
import { redeemEndpoint } from './redeem-endpoint.js';
import { refundEndpoint } from './refund-endpoint.js';

export const CHECKOUT_ENDPOINTS: readonly CheckoutEndpoint[] = [eligibilityEndpoint, redeemEndpoint, refundEndpoint, catalogSyncEndpoint];

export interface CheckoutRoutesOptions extends CheckoutDeps {
  environment: GatewayEnvironment;
  /** GATEWAY_FEATURES: the endpoints enabled in production. */
  features: readonly CheckoutFeature[];
}

/** Answers before anything else runs: no body is read, no credential is looked at. */
const notEnabled: onRequestHookHandler = (_request, _reply, done) => done(new GatewayError('endpoint_not_enabled'));

const enabled = (options: CheckoutRoutesOptions, endpoint: CheckoutEndpoint) =>
  isFeatureEnabled(options.environment, options.features, endpoint.feature);

/** The enabled checkout endpoints, on the v1-signed scope (its hooks authenticate them). */
export function registerCheckoutRoutes(signed: FastifyInstance, options: CheckoutRoutesOptions): void {
  for (const endpoint of CHECKOUT_ENDPOINTS.filter((e) => enabled(options, e))) {
    signed.post(endpoint.path, { schema: { response: { 200: endpoint.responseSchema } } }, endpoint.handler(options));
  }
}

/**
 * The disabled checkout endpoints (production without them in GATEWAY_FEATURES), outside the
 * v1-signed scope: registered for every method and answering 404 endpoint_not_enabled from their
 * first hook, so they reveal neither whether credentials are good nor which method they would take.
 */
export function registerDisabledCheckoutRoutes(app: FastifyInstance, options: CheckoutRoutesOptions): void {
  for (const endpoint of CHECKOUT_ENDPOINTS.filter((e) => !enabled(options, e))) {
    // Every method: a 405 naming POST would reveal the endpoint exists.
    app.all(endpoint.path, { onRequest: notEnabled }, async () => {
      throw new GatewayError('endpoint_not_enabled');
    });
  }
}
