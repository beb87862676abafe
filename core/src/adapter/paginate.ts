/**
 * Paging for catalog and reconciliation pulls. The gateway keeps one string between pages (a
 * pull's `checkpoint` or `cursor`, null on the first page and after the last); these helpers turn
 * it into what the vendor's list API takes, and the page the vendor answered into the next one.
 * Pass what they give to `ctx.http.request`, whose answer has the body and the headers.
 */

const wholeNumber = (value: string | null): number | null => (value !== null && /^\d+$/.test(value) ? Number(value) : null);

/** Cursor APIs (Square, most GraphQL): the checkpoint is the vendor's own opaque cursor. */
export function cursorPage(checkpoint: string | null) {
  return {
    /** The query value to send; nothing on the first page. */
    cursor: checkpoint ?? undefined,
    /** The next checkpoint from the cursor the vendor returned; a missing or empty one ends the pull. */
    next: (cursor: string | null | undefined): string | null => cursor || null,
  };
}

/** Page-numbered APIs (WooCommerce): the checkpoint is the next page number; unreadable starts again at the first. */
export function numberedPage(checkpoint: string | null, first = 1) {
  const page = wholeNumber(checkpoint) ?? first;
  return {
    page,
    /** The next checkpoint while the vendor's page count (e.g. `X-WP-TotalPages`) says there is one. */
    next: (totalPages: number): string | null => (Number.isFinite(totalPages) && page < totalPages ? String(page + 1) : null),
  };
}

/** Offset APIs (Clover): the checkpoint is the next offset; a page shorter than the limit is the last. Unreadable starts again at 0. */
export function offsetPage(checkpoint: string | null, limit: number) {
  const offset = wholeNumber(checkpoint) ?? 0;
  return {
    offset,
    limit,
    /** The next checkpoint from how many items this page held. */
    next: (received: number): string | null => (received < limit ? null : String(offset + received)),
  };
}
