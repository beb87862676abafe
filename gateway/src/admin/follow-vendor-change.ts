import type { FastifyBaseLogger } from 'fastify';

/** How long an admin write waits for this process to apply the change before answering anyway. */
export const VENDOR_CHANGE_WAIT_MS = 3_000;

/**
 * After a vendor write has committed: let this process apply it (catalog schedules, the HTTPS
 * listener's client CAs) before the admin answer, so the operator's next action sees it — but
 * never longer than `waitMs`. The write is stored either way; a slow or failing follower only
 * delays when this process applies it (it goes on in the background, and other processes poll).
 */
export async function followVendorChange(
  run: (() => Promise<void>) | undefined,
  log: Pick<FastifyBaseLogger, 'warn'>,
  waitMs = VENDOR_CHANGE_WAIT_MS,
): Promise<void> {
  if (!run) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), waitMs);
  });
  const applied = Promise.resolve()
    .then(run)
    .then(
      () => 'applied' as const,
      (error: unknown) => {
        log.warn({ err: error }, 'the vendor change is stored but applying it in this process failed; the next change or poll applies it');
        return 'failed' as const;
      },
    );
  const outcome = await Promise.race([applied, timedOut]).finally(() => clearTimeout(timer));
  if (outcome === 'timed out')
    log.warn({ waitMs }, 'the vendor change is stored; this process is still applying it (answering without waiting further)');
}
