export { adapterKit, type KitOptions } from './adapter-kit.js';
export type { KitResponse } from './kit-door.js';
export { loadFixtures, type Fixtures } from './load-fixtures.js';
export { createTestPki, type TestIssuer, type TestPki } from './test-certificates.js';
export {
  startRecordedVendorServer,
  type RecordedReply,
  type RecordedVendorServer,
  type RecordedVendorServerOptions,
  type SeenRequest,
} from './recorded-vendor-server.js';
export {
  ODD_JSON_VALUES,
  catalogItemProblems,
  contactValue,
  envelopeProblems,
  jsonPaths,
  mutateJson,
  mutatedAt,
  mutatedJson,
  type JsonPath,
} from './json-mutations.js';
