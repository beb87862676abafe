import { PULL, VendorApiError, type AnyAdapter, type CatalogItem } from '@loyalty-gateway/core';

/**
 * The pull policy of a catalog run (PULL in core's resilience policies): a page is one vendor call,
 * with exactly the HttpClient's vendor-call budget, and is never retried on top of it. A page that
 * still fails ends the run (recorded failed); the next schedule slot pulls again.
 */
export interface PagePolicy {
  /** A pull that has not ended after this many pages is broken (PULL.catalogMaxPages). */
  maxPages: number;
}

export const DEFAULT_PAGE_POLICY: PagePolicy = { maxPages: PULL.catalogMaxPages };

export interface PullProgress {
  pages: number;
  items: number;
  /** Pages asked, the failing one included (each page's own retries are the HttpClient's, not counted here). */
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
 * Every page of an adapter's catalog, in order, from a null checkpoint to a null checkpoint. Each
 * page is asked once: its retries (429, 5xx, network, Retry-After) are the HttpClient's, within the
 * vendor-call budget; a page that still fails ends the pull, saying why.
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
    const page = await pullOnePage(pull, ctx, checkpoint, progress);
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

async function pullOnePage(pull: Pull, ctx: PullContext, checkpoint: string | null, progress: PullProgress) {
  progress.attempts += 1;
  try {
    return await pull(ctx, checkpoint);
  } catch (error) {
    const where = `page ${progress.pages + 1}${checkpoint === null ? '' : ` (checkpoint ${checkpoint})`}`;
    throw new CatalogPullError(`${where} failed${why(error)}`, progress, { cause: error });
  }
}

/** What the vendor-call policy did before it gave up on a page, and the vendor's error. */
function why(error: unknown): string {
  const message = `: ${(error as Error).message}`;
  if (!(error instanceof VendorApiError) || !error.retryable) return message;
  const retryAfter = error.retryAfterMs ?? 0;
  if (retryAfter > PULL.page.maxDelayMs) {
    const asked = `the vendor asked to retry after ${Math.ceil(retryAfter / 1000)} s (Retry-After), longer than the ${Math.ceil(PULL.page.maxDelayMs / 1000)} s a pull waits`;
    return `: ${asked}; gave up rather than retry early`;
  }
  return error.attempts === undefined ? message : ` after ${error.attempts} attempts${message}`;
}
