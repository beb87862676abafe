import { VendorApiError, type AnyAdapter, type CatalogItem } from '@loyalty-gateway/core';

export interface PagePolicy {
  /** Attempts per page on a retryable VendorApiError, after the HTTP client's own retries (default 3). */
  pageAttempts: number;
  /** First wait between page attempts, doubled each time (default 2 s); Retry-After wins when longer. */
  baseDelayMs: number;
  /**
   * Longest wait between page attempts (default 60 s). A vendor's Retry-After is waited in full up
   * to this; a longer one ends the pull (recorded failed, saying so): the next run comes back later.
   */
  maxDelayMs: number;
  /** A pull that has not ended after this many pages is broken (default 10,000). */
  maxPages: number;
  /** Interruptible wait; rejects when the scheduler stops. */
  sleep(ms: number): Promise<void>;
}

export const DEFAULT_PAGE_POLICY: Omit<PagePolicy, 'sleep'> = { pageAttempts: 3, baseDelayMs: 2_000, maxDelayMs: 60_000, maxPages: 10_000 };

export interface PullProgress {
  pages: number;
  items: number;
  attempts: number;
}

/** The pull broke: nothing may be synced. Carries how far it got. */
export class CatalogPullError extends Error {
  constructor(
    message: string,
    readonly progress: PullProgress,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CatalogPullError';
  }
}

type Pull = NonNullable<AnyAdapter['catalog']>['pull'];
type PullContext = Parameters<Pull>[0];

/**
 * Every page of an adapter's catalog, in order, from a null checkpoint to a null checkpoint.
 * A page failing with a retryable VendorApiError (429, 5xx, network) is asked again after
 * max(Retry-After, backoff), up to `pageAttempts` times; a Retry-After longer than `maxDelayMs` and
 * anything else fail the pull at once.
 */
export async function pullAllPages(
  pull: Pull,
  ctx: PullContext,
  policy: PagePolicy,
  onPage: (progress: PullProgress) => Promise<void>,
): Promise<{ items: CatalogItem[]; progress: PullProgress }> {
  const items: CatalogItem[] = [];
  const progress: PullProgress = { pages: 0, items: 0, attempts: 0 };
  const seen = new Set<string>();
  let checkpoint: string | null = null;
  do {
    if (progress.pages >= policy.maxPages) throw new CatalogPullError(`no last page after ${policy.maxPages} pages`, progress);
    const page = await pullOnePage(pull, ctx, checkpoint, policy, progress);
    items.push(...page.items);
    progress.pages += 1;
    progress.items = items.length;
    await onPage({ ...progress });
    if (page.checkpoint !== null && seen.has(page.checkpoint)) {
      throw new CatalogPullError(`the vendor returned checkpoint ${JSON.stringify(page.checkpoint)} twice`, progress);
    }
    if (page.checkpoint !== null) seen.add(page.checkpoint);
    checkpoint = page.checkpoint;
  } while (checkpoint !== null);
  return { items, progress };
}

async function pullOnePage(pull: Pull, ctx: PullContext, checkpoint: string | null, policy: PagePolicy, progress: PullProgress) {
  for (let attempt = 1; ; attempt += 1) {
    progress.attempts += 1;
    try {
      return await pull(ctx, checkpoint);
    } catch (error) {
      const where = `page ${progress.pages + 1}${checkpoint === null ? '' : ` (checkpoint ${checkpoint})`}`;
      if (!(error instanceof VendorApiError) || !error.retryable || attempt >= policy.pageAttempts) {
        const tries = error instanceof VendorApiError && error.retryable ? ` after ${attempt} attempts` : '';
        throw new CatalogPullError(`${where} failed${tries}: ${(error as Error).message}`, progress, { cause: error });
      }
      const retryAfter = error.retryAfterMs ?? 0;
      if (retryAfter > policy.maxDelayMs) {
        const asked = `the vendor asked to retry after ${Math.ceil(retryAfter / 1000)} s (Retry-After), longer than the ${Math.ceil(policy.maxDelayMs / 1000)} s a pull waits`;
        throw new CatalogPullError(`${where} failed: ${asked}; gave up rather than retry early`, progress, { cause: error });
      }
      const wait = Math.max(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)), retryAfter);
      ctx.logger.warn({ status: error.status, attempt, waitMs: wait }, `catalog ${where} failed; retrying`);
      await policy.sleep(wait);
    }
  }
}
