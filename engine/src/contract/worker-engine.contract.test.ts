import { testDatabaseOptions, testDialects } from '@loyalty-gateway/storage/testing';
import { createWorkerEngine } from '../worker/create-worker-engine.js';
import { describeEngineContract } from './describe-engine-contract.js';

for (const { name } of testDialects()) {
  describeEngineContract(`embedded engine on a worker thread, ${name}`, async () => {
    const { options, dispose } = await testDatabaseOptions(name);
    const engine = await createWorkerEngine({ database: options });
    return {
      engine,
      close: async () => {
        await engine.close();
        await dispose();
      },
    };
  });
}
