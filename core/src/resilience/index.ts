export * from './policies.js';
export * from './vendor-call.js';
