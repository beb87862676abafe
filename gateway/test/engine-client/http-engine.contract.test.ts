import { testDialects } from '@loyalty-gateway/storage/testing';
import { describeEngineContract } from '@loyalty-gateway/engine/contract';
import { openEngineService } from '../../src/testing/engine-service-harness.js';

/** The port contract through the HTTP client → engine service → embedded engine, on each dialect. */
for (const { name } of testDialects()) {
  describeEngineContract(`HTTP engine → engine service on ${name}`, async () => {
    const harness = await openEngineService(name);
    const engine = Object.assign(harness.client, { applySeed: harness.embedded.applySeed });
    return { engine, close: harness.close };
  });
}
