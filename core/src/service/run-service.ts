export interface RunningService {
  app: { log: { info(object: Record<string, unknown>, message: string): void } };
  close(): Promise<void>;
}

/**
 * The process entry point of a service: start it from the environment (an operator error —
 * bad config, bad seed file — prints its message alone and exits 1), then close gracefully on
 * SIGTERM / SIGINT, exiting 1 if closing takes more than 10 s.
 */
export async function runService(start: () => Promise<RunningService>, isOperatorError: (error: unknown) => boolean): Promise<void> {
  let running: RunningService;
  try {
    running = await start();
  } catch (error) {
    console.error(isOperatorError(error) ? (error as Error).message : error);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 10_000).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
