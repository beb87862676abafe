export { GatewayMetrics } from './gateway-metrics.js';
export { registerMetrics, startMetricsListener, type MetricsRouteOptions } from './metrics-routes.js';
