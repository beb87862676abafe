import type { GatewayConfig } from '../config.js';

/** The `x-status: coming` endpoints, by the name GATEWAY_FEATURES lists them under. */
export const CHECKOUT_FEATURES = ['eligibility', 'redeem', 'refund', 'catalog-sync'] as const;
export type CheckoutFeature = (typeof CHECKOUT_FEATURES)[number];

export type GatewayEnvironment = GatewayConfig['GATEWAY_ENV'];

/**
 * Whether a coming endpoint answers in this environment: always outside production; in
 * production only when GATEWAY_FEATURES lists it.
 */
export function isFeatureEnabled(environment: GatewayEnvironment, features: readonly CheckoutFeature[], feature: CheckoutFeature): boolean {
  return environment !== 'production' || features.includes(feature);
}
