export { adapterKit, type KitOptions } from './adapter-kit.js';
export { createTestPki, type TestPki } from './test-certificates.js';
