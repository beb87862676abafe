/**
 * Test helpers of the engine package, for its own tests and other packages' (`@loyalty-gateway/engine/testing`):
 * never part of the main entry, so nothing of it reaches a production bundle. The dialect matrix
 * and test databases are `@loyalty-gateway/storage/testing`'s.
 */
export {
  ANN,
  BOB,
  IDS,
  SCOPE,
  balanceOf,
  ledgerSum,
  line,
  openSeededEngine,
  sale,
  testSeed,
  uniqueId,
  type TestEngine,
} from './fixture.js';
export { SlowStatements } from './slow-statements.js';
