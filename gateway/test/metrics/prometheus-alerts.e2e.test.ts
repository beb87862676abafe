import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signedHeaders } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../../src/boot/seed-schema.js';
import { TEST_ENGINE_TOKEN, openEngineService, type EngineServiceHarness } from '../../src/testing/engine-service-harness.js';
import { startGateway, type RunningGateway } from '../../src/start-gateway.js';
import { freePort } from '@loyalty-gateway/storage/testing';
import { SECRET, STORE, VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';

/**
 * The alert rules in a real Prometheus (Debian's package): it scrapes a gateway's metrics listener
 * every second and evaluates deploy/prometheus/alerts.yml every second; the remote engine goes
 * down, and Prometheus' own HTTP API shows GatewayEngineBreakerOpen pending, then firing (its
 * `for: 1m`), and nothing firing before.
 */
const PROMETHEUS = '/usr/bin/prometheus';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-prom-'));

interface PromAlert {
  labels: { alertname: string };
  state: 'pending' | 'firing';
}

describe.skipIf(!existsSync(PROMETHEUS))('alert rules in a real Prometheus scraping a gateway', () => {
  let engine: EngineServiceHarness;
  let gateway: RunningGateway;
  let prometheus: ChildProcess;
  let promUrl = '';
  let promOutput = '';

  beforeAll(async () => {
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
    engine = await openEngineService('sqlite');
    const parsed = parseSeed(testSeedDocument());
    if (!('seed' in parsed)) throw new Error('seed invalid');
    await engine.embedded.applySeed(parsed.seed.engine);
    const metricsPort = await freePort();
    gateway = await startGateway({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      GATEWAY_ENV: 'uat',
      GATEWAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      GATEWAY_SCHEDULER: 'off',
      GATEWAY_DATA_DIR: path.join(dir, 'data'),
      GATEWAY_SEED_FILE: seedFile,
      GATEWAY_METRICS_PORT: String(metricsPort),
      GATEWAY_METRICS_HOST: '127.0.0.1',
      LOYALTY_ENGINE_URL: engine.url,
      LOYALTY_ENGINE_TOKEN: TEST_ENGINE_TOKEN,
      LOYALTY_ENGINE_TIMEOUT_MS: '500',
    });
    const config = path.join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(path.join(root, 'deploy/prometheus/alerts.yml'))}]`,
        'scrape_configs:',
        `  - { job_name: loyalty-gateway, static_configs: [{ targets: ['127.0.0.1:${metricsPort}'] }] }`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (chunk: Buffer) => (promOutput += chunk.toString()));
    prometheus.stderr!.on('data', (chunk: Buffer) => (promOutput += chunk.toString()));
    await until('Prometheus ready', async () => ((await fetch(`${promUrl}/-/ready`).catch(() => null))?.ok ? true : undefined), 30_000);
  }, 60_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await new Promise((resolve) => prometheus.once('exit', resolve));
    }
    await gateway?.close();
    await engine?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${promOutput.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const alerts = async (): Promise<PromAlert[]> =>
    ((await (await fetch(`${promUrl}/api/v1/alerts`)).json()) as { data: { alerts: PromAlert[] } }).data.alerts;
  const stateOf = async (name: string) => (await alerts()).find((a) => a.labels.alertname === name)?.state;
  const send = async () => {
    const raw = JSON.stringify(sale({ total: 10 }));
    const headers = { 'content-type': 'application/json', ...signedHeaders({ vendor: VENDOR, store: STORE, secret: SECRET, body: raw }) };
    return (await fetch(`${gateway.address}/webhooks/generic`, { method: 'POST', headers, body: raw })).status;
  };

  it('the engine goes down: GatewayEngineBreakerOpen goes pending, then firing', async () => {
    // Healthy first: the target is up, earns go through, no alert.
    expect(await send()).toBe(200);
    await until(
      'the gateway scraped',
      async () => {
        const body = (await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent('up{job="loyalty-gateway"}')}`)).json()) as {
          data: { result: Array<{ value: [number, string] }> };
        };
        return body.data.result[0]?.value[1] === '1' ? true : undefined;
      },
      15_000,
    );
    expect(await alerts()).toEqual([]);

    await engine.server.close();
    // Traffic keeps the breaker open: its half-open trial every 10 s fails again.
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (!stop) {
        statuses.push(await send());
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    try {
      await until('pending', async () => ((await stateOf('GatewayEngineBreakerOpen')) === 'pending' ? true : undefined), 20_000);
      await until('firing', async () => ((await stateOf('GatewayEngineBreakerOpen')) === 'firing' ? true : undefined), 90_000);
    } finally {
      stop = true;
      await traffic;
    }
    expect(statuses).toContain(500);
    // The rule's own annotations, as Prometheus rendered them.
    const firing = (await alerts()).find((a) => a.labels.alertname === 'GatewayEngineBreakerOpen') as unknown as {
      annotations: { runbook_url: string };
      labels: Record<string, string>;
    };
    expect(firing.labels).toMatchObject({ severity: 'critical', instance: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    expect(firing.annotations.runbook_url).toBe('docs/operators.md#gatewayenginebreakeropen');
  }, 150_000);
});
