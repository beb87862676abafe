import type { SlowStatements } from '@loyalty-gateway/engine/testing';
import { parseSeed } from '../boot/seed-schema.js';
import type { HttpEngineOptions } from '../engine-client/index.js';
import { openEngineService, type EngineServiceHarness } from './engine-service-harness.js';
import type { GatewayFixture } from './gateway-fixture.js';
import { checkoutSeedDocument, openCheckoutGateway } from './checkout-kit.js';

/**
 * The checkout gateway in front of a real engine service over HTTP: the service's engine seeded
 * with the checkout seed, the gateway using the HTTP client (`clientOptions`) as its engine.
 */
export async function openRemoteCheckoutGateway(
  dialect: 'sqlite' | 'postgres',
  clientOptions: Partial<HttpEngineOptions>,
  slow?: SlowStatements,
): Promise<{ service: EngineServiceHarness; gw: GatewayFixture; close(): Promise<void> }> {
  const service = await openEngineService(dialect, clientOptions, undefined, slow);
  const parsed = parseSeed(checkoutSeedDocument());
  if (!('seed' in parsed)) throw new Error('checkout seed invalid');
  await service.embedded.applySeed(parsed.seed.engine);
  const gw = await openCheckoutGateway(dialect, { appEngine: service.client });
  return {
    service,
    gw,
    close: async () => {
      await gw.close();
      await service.close();
    },
  };
}
