export { buildApp, BODY_LIMIT, type AppOptions } from './app.js';
export { loadConfig, ConfigError, GatewayConfig, GATEWAY_ENVIRONMENTS } from './config.js';
export { startGateway, type RunningGateway } from './start-gateway.js';
export { loadSeedFile, applySeed, SeedError } from './boot/seed.js';
export { parseSeed, GatewaySeed, type ParsedSeed } from './boot/seed-schema.js';
export { DEMO_CREDENTIALS_FILE, type DemoCredentials } from './boot/demo.js';
export { createGatewayStore, createMemoryIdempotencyCache, gatewayMigrations, type GatewayStore } from './stores/index.js';
export { createGatewayLogging, type GatewayLogging } from './http/logger-options.js';
