export {
  registerCheckoutRoutes,
  registerDisabledCheckoutRoutes,
  CHECKOUT_ENDPOINTS,
  type CheckoutRoutesOptions,
} from './register-checkout-routes.js';
export { CHECKOUT_FEATURES, isFeatureEnabled, type CheckoutFeature, type GatewayEnvironment } from './checkout-features.js';
export { catalogPullerOf, type CatalogPullerOf } from './catalog-puller-of.js';
