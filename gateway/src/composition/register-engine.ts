import { tracingOn, type LoyaltyEngine } from '@loyalty-gateway/core';
import { createWorkerEngine, ENGINE_NOTICE_MESSAGES, openEngine, type EngineNotice } from '@loyalty-gateway/engine';
import type { DependencyContainer } from 'tsyringe';
import type { GatewayConfig } from '../config.js';
import { createHttpEngine } from '../engine-client/index.js';
import { ENGINE_WORKER_LIMITS, engineOnEventLoop } from '../memory/memory-bounds.js';
import { GatewayMetrics } from '../metrics/index.js';
import { traceEngine } from '../tracing/trace-engine.js';
import { get, MiB, open, perContainer, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

/**
 * The loyalty engine: LOYALTY_ENGINE_URL, the engine service over HTTP; otherwise the embedded
 * engine, on SQLite on its own thread (so the ledger's synchronous work never stalls the HTTP
 * event loop), on PostgreSQL on the event loop, where none of its work is synchronous
 * (engineOnEventLoop). Then the metrics, and the port every user goes through, timed by them.
 */
export function registerEngine(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.embeddedEngine,
    resource(
      'embedded engine',
      async (r) => {
        if (config.LOYALTY_ENGINE_URL) return null;
        const log = get(r, TOKENS.logger);
        const onNotice = (notice: EngineNotice) => log?.warn(notice, ENGINE_NOTICE_MESSAGES[notice.event]);
        if (engineOnEventLoop(config)) {
          const engine = await openEngine({
            database: (await open(r, TOKENS.databases)).engine,
            ...(config.GATEWAY_COMMIT_LANES === undefined ? {} : { groupCommitLanes: config.GATEWAY_COMMIT_LANES }),
            onNotice,
          });
          log?.info('loyalty engine started on the event loop (PostgreSQL)');
          return engine;
        }
        return createWorkerEngine({
          database: (await open(r, TOKENS.databases)).engine,
          resourceLimits: ENGINE_WORKER_LIMITS,
          groupCommitLanes: config.GATEWAY_COMMIT_LANES,
          onWorkerStart: (threadId, heapLimit) =>
            log?.info({ threadId, heapLimitMb: Math.round(heapLimit / MiB) }, 'loyalty engine thread started'),
          onWorkerExit: (detail) =>
            log?.error(
              { detail },
              'the loyalty engine thread stopped; calls in flight answered as unavailable, the next call starts a new one',
            ),
          onNotice,
        });
      },
      (engine) => engine.close(),
    ),
  );
  provide(
    c,
    TOKENS.remoteEngine,
    resource(
      'engine client',
      async () =>
        config.LOYALTY_ENGINE_URL
          ? createHttpEngine({
              url: config.LOYALTY_ENGINE_URL,
              token: config.LOYALTY_ENGINE_TOKEN,
              timeoutMs: config.LOYALTY_ENGINE_TIMEOUT_MS,
            })
          : null,
      (engine) => engine.close(),
    ),
  );
  provide(
    c,
    TOKENS.metrics,
    perContainer(async (r) => {
      const remote = await open(r, TOKENS.remoteEngine);
      const metrics = new GatewayMetrics({ breakerOpen: () => remote?.circuitState() === 'open' });
      metrics.watchLogging(get(r, TOKENS.logging));
      return metrics;
    }),
  );
  // Every user of the port (doors, checkout, catalog pulls, the operator side) goes through the timed one.
  provide(
    c,
    TOKENS.engine,
    perContainer(async (r) => {
      const engine: LoyaltyEngine = (await open(r, TOKENS.embeddedEngine)) ?? (await open(r, TOKENS.remoteEngine))!;
      const metrics = await open(r, TOKENS.metrics);
      const timed = metrics ? metrics.timeEngine<LoyaltyEngine>(engine) : engine;
      return tracingOn() ? traceEngine(timed) : timed;
    }),
  );
}
