import { testDialects, openTestDatabase } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from '../db/migrations/index.js';
import { createEmbeddedEngine } from '../ledger/create-embedded-engine.js';
import { describeEngineContract } from './describe-engine-contract.js';

for (const { name } of testDialects()) {
  describeEngineContract(`embedded engine on ${name}`, async () => {
    const database = await openTestDatabase(name, engineMigrations);
    const engine = await createEmbeddedEngine({ database });
    return {
      engine,
      close: async () => {
        await engine.close();
        await database.close();
      },
    };
  });
}
