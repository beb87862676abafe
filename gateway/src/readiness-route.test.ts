import { ErrorBody } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { createHttpEngine } from './engine-client/index.js';
import { startSilentServer } from './testing/scripted-server.js';
import { READINESS_TIMEOUT_MS } from './readiness-route.js';
import { openGateway, type GatewayFixture } from './testing/gateway-fixture.js';

const get = (gw: GatewayFixture, url: string) => gw.app.inject({ method: 'GET', url });

async function expectNotReady(gw: GatewayFixture, failing: RegExp): Promise<ErrorBody> {
  const response = await get(gw, '/ready');
  expect(response.statusCode, response.body).toBe(503);
  const body = ErrorBody.parse(response.json());
  expect(body).toMatchObject({ statusCode: 503, code: 'not_ready' });
  expect(body.message).toMatch(failing);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body;
}

async function expectAlive(gw: GatewayFixture): Promise<void> {
  const health = await get(gw, '/health');
  expect([health.statusCode, health.headers['content-type'], health.body]).toEqual([200, 'text/plain; charset=utf-8', 'ok']);
}

describe.each(testDialects())('GET /ready and GET /health ($name)', ({ name }) => {
  it('store and engine answer: 200 ready with both checks ok, no authentication needed', async () => {
    const gw = await openGateway({ dialect: name });
    try {
      const response = await get(gw, '/ready');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ready', checks: { store: 'ok', engine: 'ok' } });
      await expectAlive(gw);
    } finally {
      await gw.close();
    }
  });

  it('engine closed: 503 not_ready naming the engine; /health still 200', async () => {
    const gw = await openGateway({ dialect: name });
    try {
      await gw.engine.close();
      const body = await expectNotReady(gw, /engine failed/);
      expect(body.message).not.toMatch(/store/);
      await expectAlive(gw);
    } finally {
      await gw.close();
    }
  });

  it('gateway database gone: 503 not_ready naming the store (and the engine sharing it)', async () => {
    const gw = await openGateway({ dialect: name });
    try {
      await gw.database.close();
      await expectNotReady(gw, /store failed/);
      await expectAlive(gw);
    } finally {
      await gw.app.close();
    }
  });
});

describe('GET /ready with an engine that never answers', () => {
  it('the engine check times out after ~1 s: 503 naming it, without waiting for the engine deadline', async () => {
    const silent = await startSilentServer();
    const engine = createHttpEngine({ url: silent.url, timeoutMs: 2_000, retryDelaysMs: [0, 0] });
    const gw = await openGateway({ appEngine: engine });
    try {
      const started = performance.now();
      await expectNotReady(gw, /engine timed out/);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(READINESS_TIMEOUT_MS + 1_000);
      await expectAlive(gw);
    } finally {
      await gw.close();
      await engine.close();
      await silent.close();
    }
  });
});
