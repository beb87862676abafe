/**
 * Test helpers of the storage package (`@loyalty-gateway/storage/testing`): the dialect matrix,
 * fresh test databases (temporary PostgreSQL schemas) and their plumbing, PostgreSQL clusters of a
 * test's own (fault tests, server settings) and free loopback ports. Never part of the main
 * entry, so nothing of it reaches a production bundle.
 */
export { testDialects, openTestDatabase, testDatabaseOptions, runPostgresStatement, postgresUrlWithSchema } from './test-database.js';
export { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.js';
export { freePort } from './free-port.js';
