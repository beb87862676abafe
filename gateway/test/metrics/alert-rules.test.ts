import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { promqlMetricNames } from '../../src/testing/promql-metric-names.js';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rulesFile = path.join(root, 'deploy/prometheus/alerts.yml');
const dashboardFile = path.join(root, 'deploy/grafana/gateway.json');

/** Every name the gateway exports (a histogram's as its _bucket, _sum and _count series), with every watched gauge. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = new GatewayMetrics();
  metrics.watchClockSkew({ recent: () => [] });
  metrics.watchConnectionActivity({ recent: () => [] });
  metrics.watchJournal({ backlog: () => ({ waiting: 0, dropped: 0 }) });
  metrics.watchLogging({ droppedLines: () => 0 });
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

interface Rule {
  alert: string;
  expr: string;
  annotations: { runbook_url: string; summary: string };
}
const rules = (): Rule[] => (parse(readFileSync(rulesFile, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);

/** GitHub's anchors of docs/operators.md's headings. */
const anchors = () =>
  new Set(
    [...readFileSync(path.join(root, 'docs/operators.md'), 'utf8').matchAll(/^#+\s+(.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );

describe('alert rules (deploy/prometheus/alerts.yml) and the dashboard (deploy/grafana/gateway.json)', () => {
  it('select only metrics the gateway exports (and Prometheus’ own up)', async () => {
    const exported = await exportedNames();
    for (const rule of rules())
      expect(
        promqlMetricNames(rule.expr).filter((n) => !exported.has(n) && n !== 'up'),
        rule.alert,
      ).toEqual([]);
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
      templating: { list: Array<{ name: string; definition?: string }> };
    };
    const queries = [
      ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => [panel.title, t.expr] as const)),
      ...dashboard.templating.list.filter((v) => v.definition).map((v) => [`$${v.name}`, v.definition!] as const),
    ];
    expect(queries.length).toBeGreaterThan(20);
    for (const [title, expr] of queries) {
      const names = promqlMetricNames(expr);
      expect(names.length, `${title}: ${expr}`).toBeGreaterThan(0);
      expect(
        names.filter((n) => !exported.has(n)),
        title,
      ).toEqual([]);
    }
    // The parser itself: a metric name is seen, a label, a function, a keyword or a variable is not.
    expect(promqlMetricNames('sum by (le) (rate(a_bucket{x="y"}[$__rate_interval])) / on (v) b offset 1d and c > 2')).toEqual([
      'a_bucket',
      'b',
      'c',
    ]);
  });

  it('each rule has a summary and a runbook link to its section of docs/operators.md', () => {
    const headings = anchors();
    expect(rules().map((r) => r.alert)).toHaveLength(14);
    for (const rule of rules()) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      const [file, anchor] = rule.annotations.runbook_url.split('#');
      expect(file, rule.alert).toBe('docs/operators.md');
      expect(headings, rule.alert).toContain(anchor);
      expect(anchor, rule.alert).toBe(rule.alert.toLowerCase());
    }
  });

  describe.skipIf(!existsSync('/usr/bin/promtool'))("Prometheus' promtool (Debian's prometheus package)", () => {
    it('checks the rules and passes their unit tests (alerts.test.yml)', async () => {
      const check = await run('promtool', ['check', 'rules', rulesFile]);
      expect(check.stdout).toContain('SUCCESS: 14 rules found');
      const tests = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: path.dirname(rulesFile) });
      expect(tests.stdout).toContain('SUCCESS');
    }, 60_000);
  });
});
