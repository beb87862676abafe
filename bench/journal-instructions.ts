/**
 * The delivery journal alone, in instructions per entry: bench/journal.ts's entries recorded under
 * valgrind's callgrind, the event loop (`record` and the batch hand-over) and the SQLite writer
 * thread counted apart. A count does not depend on the host's speed or load, so it tells two
 * versions of the journal apart by a few per cent where bench/journal.ts's CPU µs per entry moves
 * by 10-20 % between runs on a shared host, and where bench/instructions.ts's count per earn moves
 * by more than the journal's whole share (its batches follow the gateway's pace under valgrind).
 *
 *   npx tsx bench/journal-instructions.ts     (JOURNAL_ENTRIES=5000 counted after JOURNAL_WARMUP=2000;
 *                                               ~2.5 minutes a tree)
 *   mkdir -p .data/before && git archive <commit> gateway/src | tar -x -C .data/before
 *   JOURNAL_TREES=.data/before,. npx tsx bench/journal-instructions.ts
 *                                              (each tree's gateway/src, one after the other; a tree
 *                                               inside the checkout finds its node_modules)
 *   JOURNAL_CALLGRIND_OUT=DIR                 keeps each tree's dumps in DIR (one file per thread),
 *                                              for callgrind_annotate
 *
 * Each tree: a fresh SQLite file, the journal with its writer thread (flushMs 250), JOURNAL_WARMUP
 * entries, callgrind's counters zeroed (callgrind_control), JOURNAL_ENTRIES entries in slices of 100
 * with 5 ms between them (batches of a few hundred entries under valgrind), the last batch flushed,
 * and the counters dumped. Needs valgrind (Debian's package).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sampleSaleBody } from './journal-sample.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = Number(process.env.JOURNAL_ENTRIES ?? 5_000);
const warmUp = Number(process.env.JOURNAL_WARMUP ?? 2_000);

/** Under callgrind: the journal of `tree`, told by the parent over stdin when to go on after each phase. */
async function child(tree: string): Promise<void> {
  const { createDatabase, migrate } = await import('@loyalty-gateway/storage');
  const { timeOrderedUuid } = (await import(path.join(tree, 'gateway/src/http/request-id.ts'))) as {
    timeOrderedUuid: (now?: number) => string;
  };
  const { createDeliveryJournal } = (await import(
    path.join(tree, 'gateway/src/journal/index.ts')
  )) as typeof import('../gateway/src/journal/index.js');
  const { gatewayMigrations } = (await import(
    path.join(tree, 'gateway/src/stores/gateway-migrations.ts')
  )) as typeof import('../gateway/src/stores/gateway-migrations.js');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'journal-instructions-'));
  const file = path.join(dir, 'gateway.db');
  const database = createDatabase<any>({ sqliteFile: file });
  await migrate(database.db, gatewayMigrations);
  const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), sqliteFile: file, flushMs: 250, maxBacklog: 1e9 });
  const body = sampleSaleBody();
  const parent = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const round = async (n: number) => {
    for (let i = 0; i < n; i += 1) {
      // An earn's entry as the hook gives it (bench/journal.ts's, with the fields an earn adds): a
      // generated id is a UUIDv7 of the millisecond the request was received.
      const now = Date.now();
      journal.record(
        {
          requestId: timeOrderedUuid(now),
          receivedAt: new Date(now),
          method: 'POST',
          route: '/webhooks/generic',
          vendor: 'acme-pos',
          storeId: 'store-1',
          connectionId: 'c0f8a7d2-0000-4000-8000-000000000001',
          eventType: 'sale.completed',
          eventId: randomUUID(),
          transactionId: randomUUID(),
          status: 200,
          outcome: 'processed',
          durationMs: 3.2,
          skewSeconds: 0.4,
          clientAddress: '127.0.0.1',
          authenticated: true,
          pointsEarned: 12,
        },
        body,
      );
      if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await journal.flush();
  };
  await round(warmUp);
  console.log('READY');
  await parent.next();
  await round(entries);
  console.log('DONE');
  await parent.next();
  await journal.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** One tree under callgrind: instructions per entry on the event loop (thread 01), on the writer and on all threads. */
async function measure(tree: string): Promise<{ main: number; writer: number; all: number }> {
  const kept = process.env.JOURNAL_CALLGRIND_OUT;
  const out = kept ? mkdtempSync(path.join(kept, `${path.basename(tree)}-`)) : mkdtempSync(path.join(os.tmpdir(), 'journal-callgrind-'));
  try {
    const valgrind = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--smc-check=all-non-file',
        '--separate-threads=yes',
        `--callgrind-out-file=${out}/cg.%p`,
        // Kept dumps name their functions in full: each file reads alone.
        ...(kept ? ['--compress-strings=no', '--compress-pos=no'] : []),
        process.execPath,
        '--predictable',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
      ],
      { cwd: root, env: { ...process.env, JOURNAL_INSTRUCTIONS_TREE: tree }, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const pid = String(valgrind.pid);
    let said = '';
    valgrind.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      for (const [word, command] of [
        ['READY', '--zero'],
        ['DONE', '--dump'],
      ] as const) {
        if (!said.includes(word)) continue;
        said = said.replace(word, '');
        execFileSync('callgrind_control', [command, pid], { stdio: 'ignore' });
        valgrind.stdin.write('go\n');
      }
    });
    const code = await new Promise<number | null>((resolve) => valgrind.on('exit', resolve));
    if (code !== 0) throw new Error(`${tree}: exited with ${code}`);
    // The dump: a file per thread, cg.<pid>.1-<thread>; the event loop is thread 01, the writer the busiest other.
    const counts = readdirSync(out)
      .filter((f) => f.startsWith(`cg.${pid}.1-`))
      .map((f) => ({
        thread: f.slice(f.lastIndexOf('-') + 1),
        count: Number(/^summary: (\d+)/m.exec(readFileSync(path.join(out, f), 'utf8'))?.[1] ?? 0),
      }));
    const main = counts.find((c) => c.thread === '01')?.count ?? 0;
    const others = counts.filter((c) => c.thread !== '01').map((c) => c.count);
    return { main: main / entries, writer: Math.max(0, ...others) / entries, all: (main + others.reduce((a, b) => a + b, 0)) / entries };
  } finally {
    if (!kept) rmSync(out, { recursive: true, force: true });
  }
}

if (process.env.JOURNAL_INSTRUCTIONS_TREE) await child(process.env.JOURNAL_INSTRUCTIONS_TREE);
else {
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  for (const tree of (process.env.JOURNAL_TREES ?? '.').split(',').map((t) => path.resolve(root, t.trim()))) {
    const { main, writer, all } = await measure(tree);
    console.log(
      `${tree}: ${k(main)} instructions per entry on the event loop, ${k(writer)} on the writer thread, ${k(all)} on all threads (${entries} entries)`,
    );
  }
}
