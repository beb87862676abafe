/**
 * What an earn costs on a large ledger (docs/benchmarks.md, "Cost at ledger size"): the gateway on
 * a data directory grown by bench/scale-seed.ts, earns for a few thousand regular members against
 * earns spread over every member, alternated in one run:
 *
 *   npx tsx bench/scale-seed.ts DIR 1000000 10000000 2000000
 *   npx tsx bench/scale.ts DIR                  (SCALE_POSTGRES_URL as for the seed: PostgreSQL)
 *
 * The rounds begin once the journal's start-up pass has ended (its `delivery journal pruned` log
 * line; at most SCALE_JOURNAL_WAIT seconds, default 300, for a build that does not log it): at
 * 2,000,000 entries it reads the whole journal for seconds, and fell on the first rounds.
 * Before the gateway starts, the ledger's files are read into the OS's cache (SCALE_PREWARM=0: not).
 * On PostgreSQL, SCALE_CHECKPOINT=1 issues a CHECKPOINT before the warm-up; the server's disk reads
 * per request tell a run whose pages came from the disk rather than the OS's cache. On a server
 * whose autovacuum is off, the tables the seed left empty are analyzed after the warm-up, as
 * autovacuum would have (a redeem run on a new database was otherwise void).
 * SCALE_ROUNDS (default 3) rounds of SCALE_SECONDS (default 8) per mix after a warm-up (SCALE_WARMUP, 3 s), at
 * SCALE_CONNECTIONS (default 32) keep-alive connections. SCALE_REQUEST (default `earn`) is what each
 * connection sends: `earn` (a signed sale to the generic door), `eligibility` (the checkout's
 * eligibility for the member, read-only) or `redeem` (one point of the member's wallet under a fresh
 * order id: every member of the generated ledger holds ~120). SCALE_START=prod runs the production
 * start (`npm run build` first) instead of the TypeScript sources (SCALE_START_SCRIPT=DIR/bin/start:
 * another build's, beside its DIR/dist). Per mix: earns/s, p50/p99, the gateway's
 * CPU per earn (all its threads; on PostgreSQL also the server's side: buffer pages touched and read from the OS, those
 * reads by relation, WAL bytes and full-page images, the server's CPU and disk reads), the bytes its
 * process read and wrote per earn through system calls (/proc/PID/io rchar and wchar: SQLite's page
 * reads and its WAL writes, whether or not the OS's cache served them), and its peak RSS.
 */
import http from 'node:http';
import { closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { processesUsage, sampler, spentBetween, startServer, type ServerProcess } from './server-process.js';
import { signedHeaders } from '@loyalty-gateway/core';
import { AUTOVACUUM_RUNS } from '@loyalty-gateway/storage';
import { SECRET, STORE, signedSale } from './signed-load.js';
import { SCALE_SCHEMA, scaleEnv } from './scale-seed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
if (!dir) throw new Error('usage: scale.ts DIR');
const postgresUrl = process.env.SCALE_POSTGRES_URL;
const rounds = Number(process.env.SCALE_ROUNDS ?? 3);
const seconds = Number(process.env.SCALE_SECONDS ?? 8);
const connections = Number(process.env.SCALE_CONNECTIONS ?? 32);
const REGULARS = 3000;
const REQUESTS = ['earn', 'eligibility', 'redeem'] as const;
type RequestKind = (typeof REQUESTS)[number];
const requestKind = (process.env.SCALE_REQUEST ?? 'earn') as RequestKind;
if (!REQUESTS.includes(requestKind)) throw new Error(`SCALE_REQUEST must be one of ${REQUESTS.join(', ')}`);

let orders = 0;
/** One request of SCALE_REQUEST's kind for `member`: its path, signed body and headers. */
function requestFor(member: string): { path: string; body: string; headers: Record<string, string> } {
  if (requestKind === 'earn') return { path: '/webhooks/generic', ...signedSale(member) };
  orders += 1;
  const customer = { type: 'membershipId', value: member };
  const body = JSON.stringify(
    requestKind === 'eligibility'
      ? { customer, orderValue: 12.5 }
      : { customer, externalTransactionId: `R-${process.pid}-${Date.now().toString(36)}-${orders}`, pointsToRedeem: 1, orderValue: 12.5 },
  );
  return {
    path: requestKind === 'eligibility' ? '/v1/redemption/eligibility' : '/v1/redemption/redeem',
    body,
    headers: { 'content-type': 'application/json', ...signedHeaders({ vendor: 'bench-pos', store: STORE, secret: SECRET, body }) },
  };
}

function io(pid: number, tid?: string): { rchar: number; wchar: number; read: number; write: number } {
  const text = readFileSync(tid === undefined ? `/proc/${pid}/io` : `/proc/${pid}/task/${tid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)![1]);
  return { rchar: field('rchar'), wchar: field('wchar'), read: field('read_bytes'), write: field('write_bytes') };
}

/** A thread's nanoseconds runnable but waiting for a core so far (`schedstat`'s second field). */
function waitedForCore(pid: number, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
  } catch {
    return 0; // a kernel without scheduler statistics
  }
}

/**
 * Per thread (`comm/tid`), so far: bytes read and written through system calls, and nanoseconds
 * spent runnable but waiting for a core (`schedstat`'s second field; 0 where the kernel keeps no
 * scheduler statistics). On two cores shared with the load generator, a thread can be half idle and
 * still wait for the CPU whenever the others wake together.
 */
function threadIo(pid: number): Map<string, { rchar: number; wchar: number; waited: number }> {
  const out = new Map<string, { rchar: number; wchar: number; waited: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const { rchar, wchar } = io(pid, tid);
      const waited = waitedForCore(pid, tid);
      out.set(tid === String(pid) ? 'main' : `${comm}/${tid}`, { rchar, wchar, waited });
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * On a server whose autovacuum is off (this project's test machines), what it would have done
 * early in the run: ANALYZE the schema's tables the seed left empty (`redemptions`, `refunds`, …),
 * now that the warm-up has written to them. Without it the gateway's connections keep the plans
 * they made while such a table was empty, and a redeem run scanned all of `redemptions` for every
 * redemption (docs/benchmarks.md, "Cost at ledger size"); ANALYZE makes them plan again. The
 * tables analyzed, or undefined when autovacuum is on (then nothing is done).
 */
async function analyzeAsAutovacuumWould(client: pg.Client): Promise<string[] | undefined> {
  const { rows: settings } = await client.query<{ on: boolean }>(AUTOVACUUM_RUNS);
  if (settings[0]?.on !== false) return undefined;
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind = 'r' and c.reltuples <= 0 order by c.relname`,
    [SCALE_SCHEMA],
  );
  for (const { name } of rows) await client.query(`analyze ${client.escapeIdentifier(SCALE_SCHEMA)}.${client.escapeIdentifier(name)}`);
  return rows.map((row) => row.name);
}

/**
 * The PostgreSQL server's side so far: buffer pages this database's statements found in shared
 * buffers (hit) or read from the OS (read), those reads by relation (table, index or TOAST of the
 * gateway's schema); and, server-wide (nothing else should run meanwhile), the WAL written (bytes,
 * and the full-page images among its records: a page's first change after a checkpoint logs the
 * whole page) and its processes' CPU and disk reads.
 */
async function postgresSide(client: pg.Client): Promise<PostgresSide> {
  const { rows } = await client.query(
    `select (select blks_hit from pg_stat_database where datname = current_database()) as hit,
       (select blks_read from pg_stat_database where datname = current_database()) as read,
       (select wal_bytes from pg_stat_wal) as wal_bytes, (select wal_fpi from pg_stat_wal) as wal_fpi`,
  );
  const { rows: relations } = await client.query(
    `select relname as name, coalesce(heap_blks_read, 0) + coalesce(toast_blks_read, 0) as read from pg_statio_user_tables where schemaname = '${SCALE_SCHEMA}'
     union all select indexrelname, idx_blks_read from pg_statio_user_indexes where schemaname = '${SCALE_SCHEMA}'`,
  );
  return {
    hit: Number(rows[0].hit),
    read: Number(rows[0].read),
    walBytes: Number(rows[0].wal_bytes),
    walFpi: Number(rows[0].wal_fpi),
    processes: processesUsage(['postgres']),
    byRelation: new Map(relations.map((r: { name: string; read: string }) => [r.name, Number(r.read)])),
  };
}
type PostgresSide = {
  hit: number;
  read: number;
  walBytes: number;
  walFpi: number;
  /** The server's processes then (their CPU and disk reads: spentBetween). */
  processes: ReturnType<typeof processesUsage>;
  byRelation: Map<string, number>;
};

const totalCpu = (cpu: Record<string, number>) => Object.values(cpu).reduce((a, b) => a + b, 0);

/** Drive `connections` keep-alive connections for `ms`, each sending requests (SCALE_REQUEST) for `member()` back to back. */
async function drive(port: number, ms: number, member: () => string): Promise<{ ok: number; other: number; latencies: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let ok = 0;
  let other = 0;
  const end = Date.now() + ms;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const { path: target, body, headers } = requestFor(member());
      const start = process.hrtime.bigint();
      const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: target, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (response.statusCode === 200) ok += 1;
          else other += 1;
          resolve();
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  agent.destroy();
  return { ok, other, latencies };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function members(): Promise<number> {
  // The generated members are MBR-S-0 … MBR-S-(n-1): their count from the seed's record.
  const { members: n } = JSON.parse(readFileSync(path.join(dir!, 'sizes.json'), 'utf8')) as { members: number };
  return n;
}

/** The journal's start-up pass as its log line gives it, once that line is in `logFile`; undefined after `waitMs` without it. */
async function journalStartUpPass(logFile: string, waitMs: number): Promise<{ ms: number } | undefined> {
  for (const until = Date.now() + waitMs; Date.now() < until; await sleep(250)) {
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('"delivery journal pruned"')) continue;
      const entry = JSON.parse(line) as { ms: number; atStart?: boolean };
      if (entry.atStart) return { ms: entry.ms };
    }
  }
  return undefined;
}

/**
 * The ledger's files into the OS's cache before the run (SCALE_PREWARM=0: not), so that a run
 * right after other work on the host (a test suite, another database's run) does not read its
 * pages from the disk, which made such runs incomparable (docs/benchmarks.md, "Where a PostgreSQL
 * spread earn goes"). SQLite: every file of DIR/data read through; PostgreSQL: pg_prewarm's `read`
 * mode over the schema's tables and indexes (the extension is created in the bench's own database).
 * How long it took, and how many bytes.
 */
async function prewarm(dataDir: string): Promise<{ ms: number; bytes: number }> {
  const started = Date.now();
  let bytes = 0;
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query('create extension if not exists pg_prewarm');
      const { rows } = await client.query(
        `select coalesce(sum(pg_prewarm(c.oid, 'read')), 0) as blocks from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and c.relkind in ('r', 'i', 't')`,
        [SCALE_SCHEMA],
      );
      bytes = Number(rows[0].blocks) * 8192;
    } finally {
      await client.end();
    }
  } else {
    const buffer = Buffer.alloc(1 << 20);
    for (const name of readdirSync(dataDir)) {
      const fd = openSync(path.join(dataDir, name), 'r');
      try {
        for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) bytes += n;
      } finally {
        closeSync(fd);
      }
    }
  }
  return { ms: Date.now() - started, bytes };
}

if (process.env.SCALE_PREWARM !== '0') {
  const warmed = await prewarm(path.join(dir, 'data'));
  console.log(`ledger pre-read into the OS's cache: ${(warmed.bytes / 2 ** 30).toFixed(1)} GiB in ${(warmed.ms / 1000).toFixed(1)} s`);
}

// SCALE_START=prod: the production start (gateway/bin/start: the compiled build with its heap
// bounds; `npm run build` first), whose peak RSS is the one the memory target is about; by default
// the TypeScript sources (the bytes per request are the same, the CPU and RSS are tsx's).
// SCALE_START_SCRIPT: another build's production start (DIR/bin/start beside that build's DIR/dist).
const env = { ...scaleEnv(dir, postgresUrl), GATEWAY_RATE_LIMIT: '100000000' };
const server: ServerProcess =
  process.env.SCALE_START === 'prod'
    ? await startServer(
        root,
        path.join(dir, 'scale.log'),
        [],
        env,
        path.resolve(root, process.env.SCALE_START_SCRIPT ?? 'gateway/bin/start'),
      )
    : await startServer(root, path.join(dir, 'scale.log'), ['gateway/src/main.ts'], env);
const pid = server.child.pid!;
const all = await members();
// The regular members: the first REGULARS, or for redeem a window of as many at a random offset
// per run (each member holds ~120 points and a run spends ~30 of each regular's: a fixed set would
// be refused from the fifth run on, with insufficient_points).
const regularsFrom = requestKind === 'redeem' ? Math.floor(Math.random() * Math.max(0, all - REGULARS)) : 0;
const mixes = {
  regular: () => `MBR-S-${regularsFrom + Math.floor(Math.random() * Math.min(REGULARS, all))}`,
  spread: () => `MBR-S-${Math.floor(Math.random() * all)}`,
};
type Mix = keyof typeof mixes;
/** One mix's sums over its rounds. */
const emptyTotals = () => ({
  earns: 0,
  seconds: 0,
  cpu: 0,
  pgHit: 0,
  pgRead: 0,
  pgWal: 0,
  pgFpi: 0,
  pgCpu: 0,
  pgDisk: 0,
  pgByRelation: new Map<string, number>(),
  io: { rchar: 0, wchar: 0, read: 0, write: 0 } as ReturnType<typeof io>,
  threads: new Map<string, { rchar: number; wchar: number; waited: number }>(),
  threadsCpu: new Map<string, number>(),
  driverCpu: 0,
  latencies: [] as number[],
  other: 0,
});
const totals: Record<Mix, ReturnType<typeof emptyTotals>> = { regular: emptyTotals(), spread: emptyTotals() };
const rss = sampler(() => server.rss());
const pgClient = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : undefined;
await pgClient?.connect();
try {
  // The journal's start-up pass (its pruning counts the whole journal) ends before the warm-up:
  // what the threads read meanwhile, and in the warm-up, is reported apart from the rounds.
  const warm0 = threadIo(pid);
  const waited = Date.now();
  const pass = await journalStartUpPass(path.join(dir, 'scale.log'), Number(process.env.SCALE_JOURNAL_WAIT ?? 300) * 1000);
  console.log(
    pass === undefined
      ? `journal start-up pass: no log line within ${((Date.now() - waited) / 1000).toFixed(0)} s (a build that does not log it)`
      : `journal start-up pass: ${pass.ms} ms (waited ${((Date.now() - waited) / 1000).toFixed(1)} s)`,
  );
  // SCALE_CHECKPOINT=1, PostgreSQL: a checkpoint before the warm-up, so the run starts at a known
  // point of the server's cycle (a page's first change after one writes the whole page to the WAL,
  // which costs the spread mix most: docs/benchmarks.md, "Where a PostgreSQL spread earn goes").
  if (pgClient && process.env.SCALE_CHECKPOINT === '1') await pgClient.query('checkpoint');
  const warmCpu0 = server.cpu();
  await drive(server.port, Number(process.env.SCALE_WARMUP ?? 3) * 1000, mixes.spread);
  const warmCpu1 = server.cpu();
  if (pgClient) {
    const analyzed = await analyzeAsAutovacuumWould(pgClient);
    if (analyzed)
      console.log(`autovacuum is off on this server: analyzed after the warm-up, as it would have: ${analyzed.join(', ') || 'nothing'}`);
  }
  console.log(
    `start-up pass and warm-up, MB read by thread (CPU: the warm-up): ${[...threadIo(pid)]
      .map(
        ([name, v]) =>
          `${name} ${((v.rchar - (warm0.get(name)?.rchar ?? 0)) / 2 ** 20).toFixed(0)} (CPU ${(((warmCpu1[name] ?? 0) - (warmCpu0[name] ?? 0)) / 1e6).toFixed(1)} s)`,
      )
      .filter((line) => !/ 0 \(/.test(line))
      .join(', ')}`,
  );
  for (let round = 0; round < rounds; round += 1) {
    for (const mix of (round % 2 === 0 ? ['regular', 'spread'] : ['spread', 'regular']) as Mix[]) {
      const threadsCpu0 = server.cpu();
      const cpu0 = totalCpu(threadsCpu0);
      const pg0 = pgClient ? await postgresSide(pgClient) : undefined;
      const io0 = io(pid);
      const threads0 = threadIo(pid);
      const driver0 = process.cpuUsage();
      const t0 = Date.now();
      const result = await drive(server.port, seconds * 1000, mixes[mix]);
      const t = totals[mix];
      t.seconds += (Date.now() - t0) / 1000;
      const driver1 = process.cpuUsage(driver0);
      t.driverCpu += driver1.user + driver1.system;
      const threadsCpu1 = server.cpu();
      t.cpu += totalCpu(threadsCpu1) - cpu0;
      for (const [thread, us] of Object.entries(threadsCpu1))
        t.threadsCpu.set(thread, (t.threadsCpu.get(thread) ?? 0) + us - (threadsCpu0[thread] ?? 0));
      if (pgClient && pg0) {
        const pg1 = await postgresSide(pgClient);
        t.pgHit += pg1.hit - pg0.hit;
        t.pgRead += pg1.read - pg0.read;
        t.pgWal += pg1.walBytes - pg0.walBytes;
        t.pgFpi += pg1.walFpi - pg0.walFpi;
        const spent = spentBetween(pg0.processes, pg1.processes);
        t.pgCpu += spent.us;
        t.pgDisk += spent.diskRead;
        for (const [name, read] of pg1.byRelation)
          t.pgByRelation.set(name, (t.pgByRelation.get(name) ?? 0) + read - (pg0.byRelation.get(name) ?? 0));
      }
      const io1 = io(pid);
      for (const k of ['rchar', 'wchar', 'read', 'write'] as const) t.io[k] += io1[k] - io0[k];
      for (const [thread, now] of threadIo(pid)) {
        const then = threads0.get(thread) ?? { rchar: 0, wchar: 0, waited: 0 };
        const sum = t.threads.get(thread) ?? { rchar: 0, wchar: 0, waited: 0 };
        t.threads.set(thread, {
          rchar: sum.rchar + now.rchar - then.rchar,
          wchar: sum.wchar + now.wchar - then.wchar,
          waited: sum.waited + now.waited - then.waited,
        });
      }
      t.earns += result.ok;
      t.other += result.other;
      t.latencies.push(...result.latencies);
      console.log(`round ${round + 1} ${mix}: ${(result.ok / seconds).toFixed(0)} ${requestKind}/s`);
    }
  }
} finally {
  const memory = rss.stop();
  await pgClient?.end();
  await server.stop();
  const rate = (mix: Mix) => totals[mix].earns / totals[mix].seconds;
  const rows = (['regular', 'spread'] as Mix[]).map((mix) => {
    const t = totals[mix];
    const sorted = t.latencies.sort((a, b) => a - b);
    return {
      mix,
      [`${requestKind}/s`]: Math.round(rate(mix)),
      relative: +(rate(mix) / rate('regular')).toFixed(2),
      'p50 ms': +quantile(sorted, 0.5).toFixed(1),
      'p99 ms': +quantile(sorted, 0.99).toFixed(1),
      'gateway CPU µs/req': Math.round(t.cpu / t.earns),
      ...(postgresUrl
        ? {
            'pages hit/req': +(t.pgHit / t.earns).toFixed(1),
            'pages read/req': +(t.pgRead / t.earns).toFixed(1),
            'WAL KB/req': +(t.pgWal / t.earns / 1024).toFixed(1),
            'full pages/req': +(t.pgFpi / t.earns).toFixed(2),
            'server CPU µs/req': Math.round(t.pgCpu / t.earns),
            'server disk read KB/req': +(t.pgDisk / t.earns / 1024).toFixed(1),
          }
        : {}),
      'read KB/req': +(t.io.rchar / t.earns / 1024).toFixed(1),
      'written KB/req': +(t.io.wchar / t.earns / 1024).toFixed(1),
      'disk read KB/req': +(t.io.read / t.earns / 1024).toFixed(1),
      'non-200': t.other,
    };
  });
  console.table(rows);
  const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)} %`;
  for (const mix of ['regular', 'spread'] as Mix[]) {
    const t = totals[mix];
    const busy = [...t.threads].filter(([, v]) => v.rchar + v.wchar > 512 * t.earns);
    const working = [...t.threadsCpu].filter(([, us]) => us >= t.earns).sort((a, b) => b[1] - a[1]);
    console.log(
      `${mix}, CPU µs per request by thread: ${working.map(([name, us]) => `${name} ${(us / t.earns).toFixed(0)}`).join(', ')} (the load generator ${(t.driverCpu / t.earns).toFixed(0)}); of each thread's time, on a core / waiting for one: ${working.map(([name, us]) => `${name} ${share(us / 1e6, t.seconds)} / ${share((t.threads.get(name)?.waited ?? 0) / 1e9, t.seconds)}`).join(', ')}`,
    );
    console.log(
      `${mix}, KB read/written per request by thread: ${busy.map(([name, v]) => `${name} ${(v.rchar / t.earns / 1024).toFixed(1)}/${(v.wchar / t.earns / 1024).toFixed(1)}`).join(', ')}`,
    );
  }
  if (postgresUrl)
    for (const mix of ['regular', 'spread'] as Mix[]) {
      const t = totals[mix];
      const top = [...t.pgByRelation].filter(([, read]) => read >= 0.05 * t.earns).sort((a, b) => b[1] - a[1]);
      console.log(
        `${mix}, pages read from the OS per request by relation: ${top.map(([name, read]) => `${name} ${(read / t.earns).toFixed(2)}`).join(', ')}`,
      );
    }
  console.log(
    `members ${all.toLocaleString()}, peak RSS ${(memory.peak / 2 ** 20).toFixed(0)} MiB, ${connections} connections, ${rounds} rounds of ${seconds} s per mix`,
  );
  console.log(
    JSON.stringify({ dir, request: requestKind, postgres: Boolean(postgresUrl), rows, peakRssMiB: Math.round(memory.peak / 2 ** 20) }),
  );
}
