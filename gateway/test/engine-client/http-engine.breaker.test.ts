import { EngineUnavailableError } from '@loyalty-gateway/core';
import { createEngineServer } from '@loyalty-gateway/engine';
import { ANN, SCOPE, sale, testSeed } from '@loyalty-gateway/engine/testing';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureKind } from '../../src/engine-client/engine-call-failure.js';
import { TEST_ENGINE_TOKEN, openEngineService, type EngineServiceHarness } from '../../src/testing/engine-service-harness.js';
import { answer, startScriptedServer } from '../../src/testing/scripted-server.js';

describe('HTTP engine circuit breaker (real sockets)', () => {
  let harness: EngineServiceHarness | undefined;
  let revived: FastifyInstance | undefined;
  // Cockatiel times the cool-down on Date.now: the tests move a fake Date forward (it follows real time between moves).
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
  afterEach(async () => {
    vi.useRealTimers();
    await revived?.close();
    await harness?.close();
    harness = undefined;
    revived = undefined;
  });

  it('opens after N consecutive failures, fails fast without the network, and closes after the cool-down once the service is back', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    harness = await openEngineService('sqlite', {
      breaker: { failureThreshold: 3, coolDownMs: 10_000 },
      retryDelaysMs: [],
    });
    await harness.embedded.applySeed(testSeed());
    expect((await harness.client.earn(sale())).status).toBe('processed');
    const { port } = new URL(harness.url);
    await harness.server.close();

    for (let i = 0; i < 3; i += 1) {
      const error = await harness.client.earn(sale()).catch((e: unknown) => e);
      expect(failureKind(error)).toBe('connection');
    }
    expect(harness.client.circuitState()).toBe('open');

    revived = createEngineServer({ engine: harness.embedded, token: TEST_ENGINE_TOKEN });
    let hits = 0;
    revived.addHook('onRequest', async () => {
      hits += 1;
    });
    await revived.listen({ port: Number(port), host: '127.0.0.1' });
    const fast = await harness.client.eligibility({ ...SCOPE, customer: ANN }).catch((e: unknown) => e);
    expect(fast).toBeInstanceOf(EngineUnavailableError);
    expect(failureKind(fast)).toBe('circuit_open');
    expect(hits).toBe(0);

    later(10_000);
    expect((await harness.client.eligibility({ ...SCOPE, customer: ANN })).walletBalance).toBe(1212);
    expect(hits).toBe(1);
    expect(harness.client.circuitState()).toBe('closed');
  });

  it('counts only unavailability: EngineErrors keep it closed; a failed half-open trial re-opens it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    let down = true;
    const server = await startScriptedServer([
      (request, response) => {
        if (down) answer(503, { code: 'engine_unavailable', message: 'x' })(request, response);
        else answer(404, { code: 'member_not_found', message: 'no' })(request, response);
      },
    ]);
    const { createHttpEngine } = await import('../../src/engine-client/create-http-engine.js');
    const engine = createHttpEngine({ url: server.url, breaker: { failureThreshold: 2, coolDownMs: 1_000 } });
    try {
      const redeem = () =>
        engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o', pointsToRedeem: 1 }).catch((e: unknown) => e);
      await redeem();
      down = false;
      expect(await redeem()).toMatchObject({ code: 'member_not_found' });
      down = true;
      await redeem();
      expect(engine.circuitState()).toBe('closed');
      await redeem();
      expect(engine.circuitState()).toBe('open');
      later(1_000);
      expect(failureKind(await redeem())).toBe('unavailable_status');
      expect(engine.circuitState()).toBe('open');
      expect(failureKind(await redeem())).toBe('circuit_open');
      expect(server.hits).toHaveLength(5);
    } finally {
      await engine.close();
      await server.close();
    }
  });
});
