import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from './gateway-metrics.js';

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
