/**
 * Test helpers of the storage package (`@loyalty-gateway/storage/testing`): the dialect matrix,
 * fresh test databases (temporary PostgreSQL schemas) and their plumbing. Never part of the main
 * entry, so nothing of it reaches a production bundle.
 */
export { testDialects, openTestDatabase, testDatabaseOptions, runPostgresStatement, postgresUrlWithSchema } from './test-database.js';
