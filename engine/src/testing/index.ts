/**
 * Test helpers of the engine package, for its own tests and other packages' (`@loyalty-gateway/engine/testing`):
 * never part of the main entry, so nothing of it reaches a production bundle.
 */
export { testDialects, openTestDatabase, testDatabaseOptions, runPostgresStatement, postgresUrlWithSchema } from '../db/testing.js';
export { balanceOf, ledgerSum } from './fixture.js';
