/**
 * Summarise V8 CPU profiles (`--cpu-prof` output, one file per thread): for each profile, the
 * share of samples by package or file (self time) and the heaviest functions. Allocation profiles
 * (`.heapprofile`, BENCH_ALLOC_PROF: bench/alloc-sampler.cjs) likewise by bytes allocated, per
 * request when DIR holds the count profile-earn wrote (`requests`).
 *
 *   npx tsx bench/profile-summary.ts DIR [topN]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2] ?? '.';
const top = Number(process.argv[3] ?? 25);

/** A call frame's home: the npm package, our package and file, node's internals or V8. */
function home(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const ours = /\/(core|engine|gateway|storage|adapters\/[^/]+)\/(?:src|dist)\/(.*)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const byHome = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, t] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const h = home(frame.url, frame.functionName);
    byHome.set(h, (byHome.get(h) ?? 0) + t);
    const fn = `${frame.functionName || '(anonymous)'} ${h}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
  }
  const pct = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)} %`;
  console.log(`\n== ${file}: ${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s`);
  console.log('-- by home (self time)');
  for (const [h, t] of [...byHome].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${h}`);
  console.log('-- by function (self time)');
  for (const [f, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${f}`);
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const requestsFile = path.join(dir, 'requests');
const requests = existsSync(requestsFile) ? Number(readFileSync(requestsFile, 'utf8')) : 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.heapprofile'))) {
  const { head } = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { head: HeapNode };
  const byHome = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapNode) => {
    const frame = node.callFrame;
    const h = home(frame.url, frame.functionName);
    byHome.set(h, (byHome.get(h) ?? 0) + node.selfSize);
    const fn = `${frame.functionName || '(anonymous)'} ${h}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(visit);
  };
  visit(head);
  const size = (bytes: number) =>
    requests > 0 ? `${(bytes / requests).toFixed(0).padStart(7)} B/request` : `${((bytes / total) * 100).toFixed(1).padStart(5)} %`;
  console.log(
    `\n== ${file}: ${(total / 2 ** 20).toFixed(1)} MiB allocated${requests > 0 ? `, ${(total / requests / 1024).toFixed(1)} KiB per request (${requests} requests)` : ''}`,
  );
  console.log('-- by home (self)');
  for (const [h, b] of [...byHome].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${size(b)}  ${h}`);
  console.log('-- by function (self)');
  for (const [f, b] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${size(b)}  ${f}`);
}
