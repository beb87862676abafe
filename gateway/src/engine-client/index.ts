export { createHttpEngine, HttpEngineOptions, type HttpEngine } from './create-http-engine.js';
export { ENGINE_CALL, type CircuitState } from './engine-call-policy.js';
export { EngineCallFailure, type EngineFailureKind } from './engine-call-failure.js';
