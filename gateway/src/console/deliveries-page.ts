import type { Delivery } from '../journal/index.js';
import { html, type SafeHtml } from '../directory/html.js';
import { NOTHING_EARNED_REASONS, NOTHING_EARNED_TEXT } from '../webhooks/nothing-earned.js';
import { consolePage, time, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';

/** The text filters the deliveries form offers, as typed (strings; empty when unset). */
export const DELIVERY_FILTERS = [
  ['requestId', 'Request id'],
  ['vendor', 'Vendor'],
  ['store', 'Store'],
  ['status', 'Status'],
  ['code', 'Code'],
  ['transactionId', 'Transaction id'],
  ['since', 'Since (ISO 8601)'],
  ['until', 'Until (ISO 8601)'],
] as const;
export type DeliveryFilterKey = (typeof DELIVERY_FILTERS)[number][0] | 'nothingEarned';
export type DeliveryFilterValues = Partial<Record<DeliveryFilterKey, string>>;

const HINTS: Partial<Record<DeliveryFilterKey, string>> = {
  status: 'e.g. 500',
  code: 'e.g. bad_signature',
  since: 'e.g. 2026-01-31T09:00Z',
  until: 'e.g. 2026-01-31T18:00Z',
};

/** The "Earned" filter: anything, or the processed sales that earned nothing (for any reason, or one). */
const EARNED_CHOICES: Array<[string, string]> = [
  ['', 'Anything'],
  ['any', 'Nothing, for any reason'],
  ...NOTHING_EARNED_REASONS.map((reason): [string, string] => [reason, `Nothing: ${NOTHING_EARNED_TEXT[reason]}`]),
];

/** What a delivery moved, in a few words: `12 points`, `7 points reversed`, stamps, or that it earned nothing and why. */
export function earnedText(d: Delivery): string {
  if (d.nothingEarned) return `nothing: ${NOTHING_EARNED_TEXT[d.nothingEarned]}`;
  const parts: string[] = [];
  if (d.pointsEarned !== null) parts.push(`${d.pointsEarned} points`);
  if (d.pointsReversed !== null) parts.push(`${d.pointsReversed} points reversed`);
  if (d.stamps) parts.push(`stamps ${d.stamps}`);
  return parts.join(', ');
}

/** The answer and why: the outcome, then a failure's cause or the warning, and whether a replay recovered it. */
function answerCell(d: Delivery): SafeHtml {
  const why = d.failure ? `${d.failure.call}: ${d.failure.what}` : (d.warning ?? '');
  return html`<strong>${d.outcome ?? ''}</strong>${why ? html` <span class="muted">${why}</span>` : html``}${
    d.recoveredBy
      ? html` <span class="recovered">Recovered by a replay.</span>`
      : d.replayOf
        ? html` <span class="muted">(a replay)</span>`
        : html``
  }`;
}

/** A store id kept on one line when it is short (`store-001`); a long one (a shop's URL) may wrap. */
const storeText = (storeId: string): SafeHtml => (storeId.length <= 24 ? html`<span class="nowrap">${storeId}</span>` : html`${storeId}`);

/** GET /console: the journal, filtered, newest first. */
export function renderDeliveries(options: {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
  filters: DeliveryFilterValues;
  deliveries: Delivery[] | null;
  nextHref: string | null;
  /** The page's search stopped at its bound, having looked back to this time (DeliveryPage.searchedBackTo). */
  searchedBackTo?: string | null;
  journalMounted: boolean;
}): string {
  const inputs = DELIVERY_FILTERS.map(
    ([key, label]) =>
      html`<p><label for="f-${key}">${label}</label><input id="f-${key}" name="${key}" value="${options.filters[key] ?? ''}"${HINTS[key] ? html` placeholder="${HINTS[key]}"` : html``} spellcheck="false"></p>`,
  );
  const chosen = options.filters.nothingEarned ?? '';
  const earned = html`<p><label for="f-nothingEarned">Earned</label><select id="f-nothingEarned" name="nothingEarned">${EARNED_CHOICES.map(
    ([value, label]) => html`<option value="${value}"${value === chosen ? html` selected` : html``}>${label}</option>`,
  )}</select></p>`;
  const rows = (options.deliveries ?? []).map(
    (d) => html`<tr>
<td data-label="Received" class="nowrap">${time(d.receivedAt)}</td>
<td data-label="Request id"><a class="clip" href="/console/deliveries/${encodeURIComponent(d.id)}" title="${d.requestId}">${d.requestId}</a></td>
<td data-label="Status">${d.status}</td><td data-label="Earned">${earnedText(d)}</td><td data-label="Outcome">${answerCell(d)}</td>
<td data-label="Transaction">${d.transactionId ? html`<code class="id">${d.transactionId}</code>` : html``}</td>
<td data-label="Vendor / store">${d.vendor ?? ''}${d.storeId ? html` / ${storeText(d.storeId)}` : html``}</td></tr>`,
  );
  const list = !options.journalMounted
    ? html`<p>The delivery journal is off on this gateway, so there is nothing to show.</p>`
    : options.deliveries === null
      ? html``
      : options.deliveries.length === 0
        ? options.searchedBackTo && options.nextHref
          ? html`<p>No delivery received since ${time(options.searchedBackTo)} matches these filters.</p><p><a href="${options.nextHref}" rel="next">Search older deliveries</a></p>`
          : html`<p>No delivery matches these filters.</p>`
        : html`<table class="stack"><caption class="muted">Deliveries, newest first</caption>
<thead><tr><th scope="col">Received</th><th scope="col">Request id</th><th scope="col">Status</th><th scope="col">Earned</th><th scope="col">Outcome</th><th scope="col">Transaction</th><th scope="col">Vendor / store</th></tr></thead>
<tbody>${rows}</tbody></table>${options.searchedBackTo ? html`<p class="muted">Searched back to ${time(options.searchedBackTo)}.</p>` : html``}${options.nextHref ? html`<p><a href="${options.nextHref}" rel="next">${options.searchedBackTo ? 'Search older deliveries' : 'Next page'}</a></p>` : html``}`;
  return consolePage(
    { title: 'Deliveries', section: 'deliveries', session: options.session, message: options.message },
    html`<form method="get" action="/console" role="search" aria-label="Filter deliveries"><div class="filters">${inputs}${earned}
<p class="actions"><button type="submit">Filter</button> <a href="/console">Clear</a></p></div></form>${list}`,
  );
}
