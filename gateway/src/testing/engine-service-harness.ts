import type { LoyaltyEngine } from '@loyalty-gateway/core';
import {
  createEmbeddedEngine,
  createEngineServer,
  engineMigrations,
  type EmbeddedEngine,
  type EngineTables,
} from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import { openTestDatabase } from '@loyalty-gateway/storage/testing';
import type { SlowStatements } from '@loyalty-gateway/engine/testing';
import type { FastifyInstance } from 'fastify';
import { createHttpEngine, type HttpEngine, type HttpEngineOptions } from '../engine-client/create-http-engine.js';

export const TEST_ENGINE_TOKEN = 'test-engine-token-0123456789';

export interface EngineServiceHarness {
  /** The HTTP engine client under test. */
  client: HttpEngine;
  /** The embedded engine behind the service (seed it, inspect it). */
  embedded: EmbeddedEngine;
  /** The engine's database (the real one, not slowed). */
  database: SqlDatabase<EngineTables>;
  server: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * A real engine service on 127.0.0.1 (random port) with an embedded engine on a fresh database of
 * one dialect behind it, and an HTTP engine client pointed at it. `wrap` may decorate the engine
 * the service serves; `slow` slows the engine's database itself (a slow disk or server, not a
 * mock: the engine runs its real transactions on it).
 */
export async function openEngineService(
  dialect: 'sqlite' | 'postgres',
  clientOptions: Partial<HttpEngineOptions> = {},
  wrap: (engine: EmbeddedEngine) => LoyaltyEngine = (engine) => engine,
  slow?: SlowStatements,
): Promise<EngineServiceHarness> {
  const database = await openTestDatabase<EngineTables>(dialect, engineMigrations);
  const embedded = await createEmbeddedEngine({ database: slow ? slow.wrap(database) : database });
  const server = createEngineServer({ engine: wrap(embedded), token: TEST_ENGINE_TOKEN });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  const client = createHttpEngine({ url, token: TEST_ENGINE_TOKEN, ...clientOptions });
  return {
    client,
    embedded,
    database,
    server,
    url,
    async close() {
      await client.close();
      await server.close();
      await embedded.close();
      await database.close();
    },
  };
}
