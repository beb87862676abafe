import { join } from 'node:path';
import type { WorkerEngine } from '@loyalty-gateway/engine';
import type { DependencyContainer } from 'tsyringe';
import type { GatewayConfig } from '../config.js';
import { createDeliveryJournal, startLedgerCheckpoints } from '../journal/index.js';
import { JOURNAL_WORKER_LIMITS } from '../memory/memory-bounds.js';
import { get, MiB, open, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

const HOUR = 60 * 60 * 1000;

/** The delivery journal (GATEWAY_JOURNAL_DAYS, 0: off) and its hourly pruning (a background job). */
export function registerJournal(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.journal,
    resource(
      'delivery journal',
      async (r) => {
        if (config.GATEWAY_JOURNAL_DAYS <= 0) return null;
        const log = get(r, TOKENS.logger);
        const sqliteFile = config.DATABASE_URL ? undefined : join(config.GATEWAY_DATA_DIR, 'gateway.sqlite');
        // GATEWAY_JOURNAL_WRITER=engine (SQLite, embedded engine): the engine's thread hosts the
        // writer, no thread and V8 isolate of its own; otherwise (the default, or the engine as a
        // service) the writer has a thread of its own.
        const engine = sqliteFile && config.GATEWAY_JOURNAL_WRITER === 'engine' ? await open(r, TOKENS.embeddedEngine) : null;
        const writerHost = (engine as Partial<WorkerEngine> | null)?.hostOnEngineThread?.bind(engine);
        // The embedded engine's ledger on SQLite: checkpointed in the background by the writer's own
        // thread, off the engine's (journal-writer.ts, LEDGER_CHECKPOINT_MS). With the journal off,
        // by a thread of their own instead (TOKENS.ledgerCheckpoints, below).
        const checkpointFile = !writerHost ? await ledgerFile(r, config) : undefined;
        const journal = await createDeliveryJournal({
          database: await open(r, TOKENS.gatewayDatabase),
          masterKey: await open(r, TOKENS.masterKey),
          retentionDays: config.GATEWAY_JOURNAL_DAYS,
          maxBytes: config.GATEWAY_JOURNAL_MB * MiB,
          // SQLite: written off the HTTP thread, by a second connection to gateway.sqlite.
          sqliteFile,
          sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB,
          writerResourceLimits: JOURNAL_WORKER_LIMITS,
          writerHost,
          checkpointFile,
          onError: (error, dropped) =>
            log?.warn({ err: error, dropped }, 'delivery journal: entries could not be written (requests are unaffected)'),
        });
        const writer = journal.writerThread();
        void writer?.ready.then(({ heapSizeLimit, cacheSize }) =>
          log?.info(
            {
              on: writer.where,
              heapLimitMb: Math.round(heapSizeLimit / MiB),
              sqliteCacheMb: Math.round(-cacheSize / 1024),
              checkpointsLedger: checkpointFile !== undefined,
            },
            writer.where === 'engine thread'
              ? "delivery journal writer started on the loyalty engine's thread"
              : 'delivery journal writer thread started',
          ),
        );
        (await open(r, TOKENS.metrics))?.watchJournal(journal);
        return journal;
      },
      (journal) => journal.close(),
    ),
  );
  provide(
    c,
    TOKENS.ledgerCheckpoints,
    resource(
      'ledger checkpoints',
      async (r) => {
        // With a journal, its writer runs them on its own thread, or, hosted on the engine's thread,
        // leaves them to the engine (GATEWAY_JOURNAL_WRITER=engine, a setting for memory).
        if (config.GATEWAY_JOURNAL_DAYS > 0) return null;
        const file = await ledgerFile(r, config);
        if (!file) return null;
        const log = get(r, TOKENS.logger);
        const checkpoints = startLedgerCheckpoints({
          file,
          sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB,
          resourceLimits: JOURNAL_WORKER_LIMITS,
          onExit: (error) => log?.warn({ err: error }, "ledger checkpoint thread stopped: the loyalty engine's own checkpoints carry on"),
        });
        void checkpoints.ready.then(({ heapSizeLimit }) =>
          log?.info(
            { heapLimitMb: Math.round(heapSizeLimit / MiB) },
            'ledger checkpoint thread started (the delivery journal is off: no writer thread to run them)',
          ),
        );
        return checkpoints;
      },
      (checkpoints) => checkpoints.close(),
    ),
  );
  // Pruned at start, then hourly; stopped before the journal closes. A pass still running then
  // fails at its next statement (the journal refuses them once closed): that is the stop, not a
  // failure to warn about — a gateway stopped in its first second logged one with a stack.
  provide(
    c,
    TOKENS.journalPruning,
    resource(
      'delivery journal pruning',
      async (r) => {
        const journal = await open(r, TOKENS.journal);
        if (!journal) return null;
        const log = get(r, TOKENS.logger);
        let stopping = false;
        // The start-up pass is logged even when it removed nothing: over a journal of millions it
        // counts for seconds, and the requests of those seconds share the database with it.
        const prune = (atStart = false) => {
          const started = performance.now();
          return journal.prune().then(
            (removed) =>
              (removed > 0 || atStart) &&
              log?.info(
                { removed, days: config.GATEWAY_JOURNAL_DAYS, ms: Math.round(performance.now() - started), atStart },
                'delivery journal pruned',
              ),
            (error: unknown) =>
              stopping
                ? log?.info('delivery journal pruning stopped: the gateway is stopping (it runs again at the next start)')
                : log?.warn({ err: error }, 'delivery journal pruning failed; retried in an hour'),
          );
        };
        const timer = setInterval(() => void prune(), HOUR);
        timer.unref();
        void prune(true);
        return {
          stop: () => {
            stopping = true;
            clearInterval(timer);
          },
        };
      },
      async (pruning) => pruning.stop(),
    ),
  );
}

/** The embedded engine's SQLite file (its ledger), when this process has one: not on PostgreSQL, nor with the engine as a service. */
async function ledgerFile(r: DependencyContainer, config: GatewayConfig): Promise<string | undefined> {
  if (config.DATABASE_URL || config.LOYALTY_ENGINE_URL) return undefined;
  return (await open(r, TOKENS.databases)).engine.sqliteFile;
}
