import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';

describe('reconciliation metrics', () => {
  it('count runs by vendor and status, and the events recovered', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    metrics.recordReconcileRun({ vendor: 'clover', status: 'succeeded', recovered: 3 });
    metrics.recordReconcileRun({ vendor: 'clover', status: 'failed', recovered: 0 });
    metrics.recordReconcileRun({ vendor: 'square', status: 'succeeded', recovered: 0 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_reconcile_runs_total{vendor="clover",status="succeeded"} 1');
    expect(text).toContain('gateway_reconcile_runs_total{vendor="clover",status="failed"} 1');
    expect(text).toContain('gateway_reconcile_recovered_total{vendor="clover"} 3');
    expect(text).not.toContain('gateway_reconcile_recovered_total{vendor="square"}');
  });
});

describe('pull-run and journal metrics', () => {
  it('count catalog and reconciliation runs by kind and result; the journal backlog and drops are read at scrape time', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    metrics.recordCatalogRun({ vendor: 'shopify', status: 'succeeded' });
    metrics.recordCatalogRun({ vendor: 'shopify', status: 'failed' });
    metrics.recordReconcileRun({ vendor: 'clover', status: 'succeeded', recovered: 0 });
    const backlog = { waiting: 7, dropped: 2 };
    metrics.watchJournal({ backlog: () => backlog });
    let text = await metrics.registry.metrics();
    expect(text).toContain('gateway_pull_runs_total{vendor="shopify",kind="catalog",result="succeeded"} 1');
    expect(text).toContain('gateway_pull_runs_total{vendor="shopify",kind="catalog",result="failed"} 1');
    expect(text).toContain('gateway_pull_runs_total{vendor="clover",kind="reconcile",result="succeeded"} 1');
    expect(text).toContain('gateway_journal_backlog 7');
    expect(text).toContain('gateway_journal_dropped_total 2');
    backlog.waiting = 0;
    text = await metrics.registry.metrics();
    expect(text).toContain('gateway_journal_backlog 0');
  });
});

describe('log metrics', () => {
  it('gateway_log_dropped_lines_total is read from the logging at scrape time', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    let dropped = 0;
    metrics.watchLogging({ droppedLines: () => dropped });
    expect(await metrics.registry.metrics()).toContain('gateway_log_dropped_lines_total 0');
    dropped = 12;
    expect(await metrics.registry.metrics()).toContain('gateway_log_dropped_lines_total 12');
  });
});
