// Load an already running gateway (for profiling): BENCH_PORT=3999 BENCH_DURATION=10 BENCH_CONNECTIONS=32 npx tsx bench/load.ts
import { load } from './signed-load.js';

const result = await load(
  Number(process.env.BENCH_PORT ?? 3000),
  Number(process.env.BENCH_DURATION ?? 10),
  Number(process.env.BENCH_CONNECTIONS ?? 32),
);
console.log(
  `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
);
