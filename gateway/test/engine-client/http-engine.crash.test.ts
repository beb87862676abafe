import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineUnavailableError, type EarnCommand } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, SCOPE, sale, testSeed } from '@loyalty-gateway/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { failureKind } from '../../src/engine-client/engine-call-failure.js';
import { TEST_ENGINE_TOKEN, openEngineService, type EngineServiceHarness } from '../../src/testing/engine-service-harness.js';

/** Send an earn over a raw socket and drop the connection after `bytes` of it (a client crash). */
async function crashMidEarn(url: string, command: EarnCommand, cut: 'after-send' | 'mid-body'): Promise<void> {
  const body = JSON.stringify(command);
  const head = `POST /v1/earn HTTP/1.1\r\nhost: engine\r\nauthorization: Bearer ${TEST_ENGINE_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const request = head + (cut === 'mid-body' ? body.slice(0, body.length >> 1) : body);
  const { port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(request, () => {
        socket.destroy();
        resolve();
      }),
    );
    socket.on('error', reject);
  });
}

describe.each(testDialects())('a client crash mid-earn on $name leaves the engine fully committed or untouched', ({ name }) => {
  let harness: EngineServiceHarness;
  afterEach(async () => {
    await harness.close();
  });
  const balance = async () => (await harness.client.eligibility({ ...SCOPE, customer: ANN })).walletBalance;

  it.each(['after-send', 'mid-body'] as const)(
    'connection dropped %s: the retry is processed or duplicate, points credited once',
    async (cut) => {
      harness = await openEngineService(name);
      await harness.embedded.applySeed(testSeed());
      const command = sale({ totalMinor: 4200 });
      await crashMidEarn(harness.url, command, cut);
      await sleep(50);
      const retry = await harness.client.earn({ ...command, eventId: 'vendor-retry' });
      if (cut === 'mid-body') expect(retry.status).toBe('processed');
      else expect(['processed', 'duplicate']).toContain(retry.status);
      expect(await balance()).toBe(1242);
      expect((await harness.client.earn(command)).status).toBe('duplicate');
    },
  );

  it('past its budget the engine commits nothing of an earn the client gave up on, and the retry is processed', async () => {
    let slow = true;
    harness = await openEngineService(name, { timeoutMs: 100 }, (engine) => ({
      ...engine,
      earn: async (c, o) => {
        if (slow) {
          slow = false;
          await sleep(250);
        }
        return engine.earn(c, o);
      },
    }));
    await harness.embedded.applySeed(testSeed());
    const command = sale({ totalMinor: 4200 });
    const error = await harness.client.earn(command).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect(failureKind(error)).toBe('timeout');
    await sleep(400);
    expect(await balance()).toBe(1200);
    expect(await harness.client.earn({ ...command, eventId: 'vendor-retry' })).toMatchObject({ status: 'processed', pointsEarned: 42 });
    expect(await balance()).toBe(1242);
  });

  it('the residual race: an answer lost after a commit within the budget; the retry is duplicate, credited once', async () => {
    let slow = true;
    harness = await openEngineService(name, { timeoutMs: 100 }, (engine) => ({
      ...engine,
      earn: async (c, o) => {
        const outcome = await engine.earn(c, o); // committed in time...
        if (slow) {
          slow = false;
          await sleep(250);
        } // ...but the answer is late
        return outcome;
      },
    }));
    await harness.embedded.applySeed(testSeed());
    const command = sale({ totalMinor: 4200 });
    expect(failureKind(await harness.client.earn(command).catch((e: unknown) => e))).toBe('timeout');
    await sleep(300);
    expect(await balance()).toBe(1242);
    expect(await harness.client.earn({ ...command, eventId: 'vendor-retry' })).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(await balance()).toBe(1242);
  });
});
