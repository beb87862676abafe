/**
 * Where the main thread's heap goes: one compiled gateway on the embedded engine, a V8 heap
 * snapshot of its main thread at idle and another after BENCH_DURATION (default 20) seconds of
 * signed sales at 50 connections, each summed by V8's node type and by the largest object kinds
 * (constructor names; strings and code grouped by type). Prints the two summaries side by side.
 *
 *   npm run build && npx tsx bench/heap-snapshot.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayEnv, startServer } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-heap-'));
const seedFile = path.join(dir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(seed));
process.env.BENCH_NODE_FLAGS = `${process.env.BENCH_NODE_FLAGS ?? ''} --heapsnapshot-signal=SIGUSR2`;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size by node type and by the 15 largest (type, name) groups, in MiB. */
function summarise(file: string) {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const byType = new Map<string, number>();
  const byName = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + typeAt]!]!;
    const size = s.nodes[i + sizeAt]!;
    total += size;
    byType.set(type, (byType.get(type) ?? 0) + size);
    const name = type === 'object' || type === 'native' || type === 'hidden' ? `${type}: ${s.strings[s.nodes[i + nameAt]!]}` : type;
    byName.set(name, (byName.get(name) ?? 0) + size);
  }
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${mib(v).padStart(6)}  ${k}`);
  return { total: mib(total), types: top(byType, 12), names: top(byName, 15) };
}

async function snapshot(pid: number, label: string): Promise<string> {
  const before = new Set(readdirSync(root).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const made = readdirSync(root).filter((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    // Written when its size stops changing.
    if (made.length > 0) {
      const file = path.join(root, made[0]!);
      const size = readFileSync(file).length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (readFileSync(file).length === size && size > 0) {
        const kept = path.join(dir, `${label}.heapsnapshot`);
        writeFileSync(kept, readFileSync(file));
        rmSync(file);
        return kept;
      }
    }
  }
  throw new Error('no heap snapshot written');
}

const server = await startServer(
  root,
  path.join(dir, 'gateway.log'),
  ['gateway/dist/main.js'],
  gatewayEnv(path.join(dir, 'data'), seedFile),
);
try {
  const pid = server.child.pid!;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = summarise(await snapshot(pid, 'idle'));
  const served = await load(server.port, Number(process.env.BENCH_DURATION ?? 20), 50);
  const loaded = summarise(await snapshot(pid, 'loaded'));
  console.log(`main thread heap (live objects, MiB): idle ${idle.total}, after ${served.requests.total} earns ${loaded.total}`);
  for (const [title, a, b] of [
    ['by node type', idle.types, loaded.types],
    ['largest groups', idle.names, loaded.names],
  ] as const) {
    console.log(`\n-- ${title}: idle | after the load`);
    for (let i = 0; i < Math.max(a.length, b.length); i++) console.log(`${(a[i] ?? '').padEnd(48)} | ${b[i] ?? ''}`);
  }
} finally {
  await server.stop();
  // BENCH_KEEP_DATA=1 keeps the snapshots (open them in Chrome's DevTools, Memory tab).
  if (process.env.BENCH_KEEP_DATA) console.log(`snapshots kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
