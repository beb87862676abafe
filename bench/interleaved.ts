/**
 * Targets measured side by side: every server started first, then loaded in turn, a short slice
 * each, round after round, each round starting one target later. This machine's speed drifts by
 * more than the differences sought, within a minute and sometimes by a third (docs/benchmarks.md,
 * *Reading the numbers*); targets run one after the other for 10 s each take that drift into their
 * ratios, while slices of a few seconds, taken in turn, each see nearly the same machine.
 *
 * A target's figures are the sum of its slices: requests per second over the time it was loaded,
 * its latency percentiles from all its slices' latencies together (autocannon's histograms, merged),
 * and its CPU from the start of each slice until the server has gone quiet after it (a batch the
 * server finishes after the load stops is its own work, not the next target's).
 */
import autocannon, { type Result } from 'autocannon';
import { cpuPerRequest, sampler, type ServerProcess } from './server-process.js';
import { load } from './signed-load.js';

export interface InterleavedTarget {
  name: string;
  server: ServerProcess;
}

export interface SliceOptions {
  /** Rounds: each target is loaded once per round. */
  slices: number;
  /** Seconds a slice lasts. */
  seconds: number;
  connections: number;
  /** Seconds each target is loaded once, before the first slice (not counted). */
  warmUp: number;
}

export interface InterleavedResult {
  name: string;
  /** Requests served over the time the target was loaded. */
  rps: number;
  /** Each slice's requests per second, in the order they ran. */
  sliceRps: number[];
  /** Over every slice's latencies together. */
  p50: number;
  p99: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** CPU µs per request, per thread ('main' is the event loop). */
  cpu: Record<string, number>;
  /** The load generator's (this process's) CPU µs per request. */
  client: number;
  /** Bytes: before the warm-up, and the peak and mean of the samples taken while loaded. */
  rssIdle: number;
  rssPeak: number;
  rssMean: number;
}

/** How long a server may go on working after its slice before the next one starts anyway. */
const SETTLE_LIMIT_MS = 2_000;
/** Quiet: less than this share of one core over a 100 ms window. */
const QUIET_SHARE = 0.05;

/**
 * Load `targets` in turn (module comment). Returns one result per target, in the order given.
 * `slice(port, seconds)` is the load of one slice (signed unique sales by default).
 */
export async function interleave(
  targets: readonly InterleavedTarget[],
  options: SliceOptions,
  slice: (port: number, seconds: number, connections: number) => Promise<Result> = (port, seconds, connections) =>
    load(port, seconds, connections, undefined, undefined, { skipAggregateResult: true }),
): Promise<InterleavedResult[]> {
  const state = targets.map(({ name, server }) => ({
    name,
    server,
    rssIdle: server.rss(),
    results: [] as RawResult[],
    cpuSpent: {} as Record<string, number>,
    client: 0,
    rssPeak: 0,
    rssSum: 0,
    rssSamples: 0,
  }));
  for (const target of state) {
    await load(target.server.port, options.warmUp, options.connections);
    await settle(target.server);
  }
  for (let round = 0; round < options.slices; round += 1) {
    for (let k = 0; k < state.length; k += 1) {
      const target = state[(round + k) % state.length]!;
      const before = target.server.cpu();
      const clientBefore = process.cpuUsage();
      const memory = sampler(() => target.server.rss());
      target.results.push((await slice(target.server.port, options.seconds, options.connections)) as unknown as RawResult);
      const client = process.cpuUsage(clientBefore);
      target.client += client.user + client.system;
      const rss = memory.stop();
      target.rssPeak = Math.max(target.rssPeak, rss.peak);
      target.rssSum += rss.mean * rss.samples;
      target.rssSamples += rss.samples;
      await settle(target.server);
      for (const [thread, us] of Object.entries(target.server.cpu())) {
        target.cpuSpent[thread] = (target.cpuSpent[thread] ?? 0) + us - (before[thread] ?? 0);
      }
    }
  }
  return state.map((target) => {
    const merged = autocannon.aggregateResult(target.results as unknown as Result[], { url: 'http://127.0.0.1' });
    const requests = target.results.reduce((sum, r) => sum + r.totalCompletedRequests, 0);
    const seconds = target.results.reduce((sum, r) => sum + r.duration, 0);
    return {
      name: target.name,
      rps: requests / seconds,
      sliceRps: target.results.map((r) => r.totalCompletedRequests / r.duration),
      p50: merged.latency.p50,
      p99: merged.latency.p99,
      requests,
      ok: merged.statusCodeStats['200']?.count ?? 0,
      non2xx: merged.non2xx,
      errors: merged.errors,
      cpu: cpuPerRequest({}, target.cpuSpent, requests),
      client: target.client / Math.max(1, requests),
      rssIdle: target.rssIdle,
      rssPeak: target.rssPeak,
      rssMean: target.rssSamples === 0 ? 0 : target.rssSum / target.rssSamples,
    };
  });
}

/** What autocannon answers for one run with `skipAggregateResult` (its histograms still encoded). */
interface RawResult {
  totalCompletedRequests: number;
  /** Seconds, as measured by autocannon. */
  duration: number;
}

/** Wait until `server` uses less than QUIET_SHARE of a core over 100 ms, or SETTLE_LIMIT_MS. */
async function settle(server: ServerProcess): Promise<void> {
  const total = () => Object.values(server.cpu()).reduce((sum, us) => sum + us, 0);
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let last = total();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = total();
    if (now - last < QUIET_SHARE * 100_000) return;
    last = now;
  }
}
