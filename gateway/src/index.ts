/**
 * The face of @loyalty-gateway/gateway, for tools and bench only: start a whole gateway process
 * (the CLI's tests), or build the app over stores of one's own (bench/gateway-without-ledger.ts).
 * Everything else is assembled inside the gateway (`composition/`); its adapters are `./adapters`.
 */
export { startGateway, type RunningGateway } from './start-gateway.js';
export { buildApp } from './app.js';
export { createGatewayLogging } from './http/logger-options.js';
export { createGatewayStore, createMemoryIdempotencyCache, gatewayMigrations } from './stores/index.js';
