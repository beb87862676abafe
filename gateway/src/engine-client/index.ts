export { createHttpEngine, HttpEngineOptions, type HttpEngine } from './create-http-engine.js';
export type { CircuitState } from './circuit-breaker.js';
export { EngineCallFailure, type EngineFailureKind } from './engine-call-failure.js';
