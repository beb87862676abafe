import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ENGINE_OPERATIONS, wrapEngineCalls } from '../engine-client/wrap-engine-calls.js';

/** The engine port's operations, as the `operation` label of gateway_engine_call_duration_seconds. */
export { ENGINE_OPERATIONS };

/**
 * The gateway's Prometheus metrics (prom-client), on a registry of its own (never the global
 * one: two gateways in one test process must not share counters). Labels are bounded: routes are
 * Fastify's route templates (`/webhooks/:slug`, never a raw URL), vendors are registered slugs
 * (an unauthenticated request is labelled `-`), outcomes and operations are fixed sets.
 */
export class GatewayMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'gateway_requests_total',
    help: 'HTTP requests answered, by route template, status and (authenticated) vendor.',
    labelNames: ['route', 'status', 'vendor'] as const,
    registers: [this.registry],
  });

  readonly requestDuration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route template.',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly earnOutcomes = new Counter({
    name: 'gateway_earn_outcomes_total',
    help: 'Outcomes of sale and refund events on the webhook doors: processed, duplicate, ignored, or the error code; a processed sale that earned nothing also has reason (walk_in, unknown_customer, below_threshold, other_currency, refunded_first).',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly engineCallDuration = new Histogram({
    name: 'gateway_engine_call_duration_seconds',
    help: 'Duration of calls to the loyalty engine port, by operation (failed calls included).',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
    registers: [this.registry],
  });

  readonly idempotencyConflicts = new Counter({
    name: 'gateway_idempotency_conflicts_total',
    help: 'Sales whose transaction id was already recorded for another sale (other total, currency, customer or items), by vendor.',
    labelNames: ['vendor'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests refused 429 rate_limited, by vendor.',
    labelNames: ['vendor'] as const,
    registers: [this.registry],
  });

  readonly reconcileRuns = new Counter({
    name: 'gateway_reconcile_runs_total',
    help: 'Order reconciliation runs this process finished, by vendor and status (succeeded, failed).',
    labelNames: ['vendor', 'status'] as const,
    registers: [this.registry],
  });

  readonly reconcileRecovered = new Counter({
    name: 'gateway_reconcile_recovered_total',
    help: 'Sales and refunds reconciliation found that the webhook never delivered (earned or reversed by the run), by vendor.',
    labelNames: ['vendor'] as const,
    registers: [this.registry],
  });

  readonly pullRuns = new Counter({
    name: 'gateway_pull_runs_total',
    help: 'Scheduled or manual pulls this process finished, by vendor, kind (catalog, reconcile) and result (succeeded, failed).',
    labelNames: ['vendor', 'kind', 'result'] as const,
    registers: [this.registry],
  });

  /** Count one finished catalog pull. */
  recordCatalogRun(run: { vendor: string; status: string }): void {
    this.pullRuns.inc({ vendor: run.vendor, kind: 'catalog', result: run.status });
  }

  /** Count one finished reconciliation run. */
  recordReconcileRun(run: { vendor: string; status: string; recovered: number }): void {
    this.pullRuns.inc({ vendor: run.vendor, kind: 'reconcile', result: run.status });
    this.reconcileRuns.inc({ vendor: run.vendor, status: run.status });
    if (run.recovered > 0) this.reconcileRecovered.inc({ vendor: run.vendor }, run.recovered);
  }

  readonly breakerOpen: Gauge;

  constructor(options: { defaultMetrics?: boolean; breakerOpen?: () => boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const open = options.breakerOpen ?? (() => false);
    this.breakerOpen = new Gauge({
      name: 'gateway_engine_breaker_open',
      help: '1 while the circuit breaker towards a remote loyalty engine is open (failing fast), else 0; always 0 with the embedded engine.',
      registers: [this.registry],
      // Read when scraped: the breaker's state now.
      collect() {
        this.set(open() ? 1 : 0);
      },
    });
  }

  /**
   * gateway_clock_skew_seconds{vendor,store}: the smoothed skew of each connection seen in the last
   * hour (the one metric labelled by store: bounded by the connections actually sending).
   */
  watchClockSkew(tracker: { recent(): Array<{ vendor: string; store: string; smoothedSeconds: number }> }): void {
    this.registry.removeSingleMetric('gateway_clock_skew_seconds');
    new Gauge({
      name: 'gateway_clock_skew_seconds',
      help: 'Smoothed X-Service-Timestamp minus server time per connection seen in the last hour (requests fail past ±300 s).',
      labelNames: ['vendor', 'store'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const skew of tracker.recent()) this.set({ vendor: skew.vendor, store: skew.store }, skew.smoothedSeconds);
      },
    });
  }

  /**
   * gateway_connection_requests_last_hour{vendor,store,result}: each connection's requests in the
   * last hour as this process answered them — `all`, `refused` (4xx) and `failed` (5xx) — for the
   * connections that sent within the hour (bounded like the clock skew: by the connections sending).
   * A connection's error rate is (refused + failed) / all.
   */
  watchConnectionActivity(activity: {
    recent(): Array<{ vendor: string; store: string; lastHour: { requests: number; refused: number; failed: number } }>;
  }): void {
    this.registry.removeSingleMetric('gateway_connection_requests_last_hour');
    new Gauge({
      name: 'gateway_connection_requests_last_hour',
      help: "Each connection's requests in the last hour (result: all, refused = 4xx, failed = 5xx), for connections seen within the hour.",
      labelNames: ['vendor', 'store', 'result'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { vendor, store, lastHour } of activity.recent()) {
          this.set({ vendor, store, result: 'all' }, lastHour.requests);
          this.set({ vendor, store, result: 'refused' }, lastHour.refused);
          this.set({ vendor, store, result: 'failed' }, lastHour.failed);
        }
      },
    });
  }

  /**
   * gateway_journal_backlog: journal entries waiting to be written; gateway_journal_dropped_total:
   * dropped when the backlog was full; gateway_journal_pruned_early_total: pruned by the journal's
   * byte budget (GATEWAY_JOURNAL_MB) before GATEWAY_JOURNAL_DAYS were up.
   */
  watchJournal(journal: { backlog(): { waiting: number; dropped: number; prunedEarly?: number } }): void {
    for (const name of ['gateway_journal_backlog', 'gateway_journal_dropped_total', 'gateway_journal_pruned_early_total'])
      this.registry.removeSingleMetric(name);
    new Gauge({
      name: 'gateway_journal_backlog',
      help: 'Delivery journal entries waiting to be written (never blocking a request).',
      registers: [this.registry],
      collect() {
        this.set(journal.backlog().waiting);
      },
    });
    new Gauge({
      name: 'gateway_journal_dropped_total',
      help: 'Delivery journal entries dropped because the backlog was full (the database too slow), since start.',
      registers: [this.registry],
      collect() {
        this.set(journal.backlog().dropped);
      },
    });
    new Gauge({
      name: 'gateway_journal_pruned_early_total',
      help: 'Delivery journal entries this process pruned before GATEWAY_JOURNAL_DAYS were up, to keep the journal within GATEWAY_JOURNAL_MB, since start.',
      registers: [this.registry],
      collect() {
        this.set(journal.backlog().prunedEarly ?? 0);
      },
    });
  }

  /** gateway_log_dropped_lines_total: log lines dropped because stdout's reader could not keep up (logDestination). */
  watchLogging(logging: { droppedLines(): number }): void {
    this.registry.removeSingleMetric('gateway_log_dropped_lines_total');
    new Gauge({
      name: 'gateway_log_dropped_lines_total',
      help: 'Log lines dropped since start because the log destination stalled (8 MiB of lines waiting); requests are unaffected.',
      registers: [this.registry],
      collect() {
        this.set(logging.droppedLines());
      },
    });
  }

  /** The Prometheus text exposition of every metric. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * The engine port, timing each call (the gateway's view: queueing and the worker hop included).
   * The caller gets the engine's own promise; the timing hangs one reaction on it (no async wrapper,
   * no timer closure or label object per call).
   */
  timeEngine<E extends LoyaltyEngine>(engine: E): E {
    return wrapEngineCalls(engine, ENGINE_OPERATIONS, (operation, call) => {
      const labels = { operation };
      return (...args) => {
        const started = performance.now();
        const observe = () => this.engineCallDuration.observe(labels, (performance.now() - started) / 1000);
        const answer = call(...args);
        answer.then(observe, observe);
        return answer;
      };
    });
  }
}
