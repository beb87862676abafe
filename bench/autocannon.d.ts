declare module 'autocannon' {
  export interface Histogram {
    p50: number;
    p90: number;
    p99: number;
    average: number;
    max: number;
  }
  export interface Result {
    requests: { average: number; total: number; sent: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: RequestSpec) => RequestSpec;
  }
  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** Stop after this many requests instead of `duration` seconds. */
    amount?: number;
    /** Seconds a request may take before it counts as a timeout (default 10). */
    timeout?: number;
    workers?: number;
    requests?: RequestSpec[];
    /** Answer the run's raw result, its histograms encoded, for `aggregateResult` to merge with others. */
    skipAggregateResult?: boolean;
  }
  function autocannon(options: Options): Promise<Result>;
  namespace autocannon {
    /** Runs made with `skipAggregateResult`, merged into one result (latencies from all of them). */
    function aggregateResult(results: Result[], options?: Partial<Options>): Result;
  }
  export default autocannon;
}
