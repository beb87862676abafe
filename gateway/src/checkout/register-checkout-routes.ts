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

/**
 * The four checkout endpoints. An enabled one is a v1-authenticated route; a disabled one
 * (production without it in GATEWAY_FEATURES) is registered for every method without
 * authentication and answers 404 endpoint_not_enabled from its first hook, so it reveals neither
 * whether credentials are good nor which method it would take.
 */
export function registerCheckoutRoutes(app: FastifyInstance, options: CheckoutRoutesOptions): void {
  for (const endpoint of CHECKOUT_ENDPOINTS) {
    if (!isFeatureEnabled(options.environment, options.features, endpoint.feature)) {
      // Every method: a 405 naming POST would reveal the endpoint exists.
      app.all(endpoint.path, { config: { auth: 'none' }, onRequest: notEnabled }, async () => {
        throw new GatewayError('endpoint_not_enabled');
      });
      continue;
    }
    app.post(endpoint.path, { config: { auth: 'v1' }, schema: { response: { 200: endpoint.responseSchema } } }, endpoint.handler(options));
  }
}
