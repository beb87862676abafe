import type { Delivery, RequestIdMatch } from '../journal/index.js';
import type { ReconcileRun } from '../reconcile/index.js';
import type { CatalogRun } from '../stores/index.js';
import { html, type SafeHtml } from '../directory/html.js';
import { copyableId } from './console-copy-script.js';
import { consolePage, csrfField, time, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';

interface Common {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
}

/** The filters the deliveries form offers, as typed (strings; empty when unset). */
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
export type DeliveryFilterKey = (typeof DELIVERY_FILTERS)[number][0];
export type DeliveryFilterValues = Partial<Record<DeliveryFilterKey, string>>;

const HINTS: Partial<Record<DeliveryFilterKey, string>> = {
  status: 'e.g. 500',
  code: 'e.g. bad_signature',
  since: 'e.g. 2026-01-31T09:00Z',
  until: 'e.g. 2026-01-31T18:00Z',
};

/** GET /console: the journal, filtered, newest first. */
export function renderDeliveries(
  options: Common & {
    filters: DeliveryFilterValues;
    deliveries: Delivery[] | null;
    nextHref: string | null;
    /** The page's search stopped at its bound, having looked back to this time (DeliveryPage.searchedBackTo). */
    searchedBackTo?: string | null;
    journalMounted: boolean;
  },
): string {
  const inputs = DELIVERY_FILTERS.map(
    ([key, label]) =>
      html`<p><label for="f-${key}">${label}</label><input id="f-${key}" name="${key}" value="${options.filters[key] ?? ''}"${HINTS[key] ? html` placeholder="${HINTS[key]}"` : html``} spellcheck="false"></p>`,
  );
  const rows = (options.deliveries ?? []).map(
    (d) => html`<tr>
<td><a href="/console/deliveries/${encodeURIComponent(d.id)}">${d.requestId}</a></td><td>${time(d.receivedAt)}</td><td>${d.method} ${d.route}</td>
<td>${d.vendor ?? ''}</td><td>${d.storeId ?? ''}</td><td>${d.status}</td><td>${d.outcome ?? ''}</td><td>${d.transactionId ?? ''}</td>
<td>${d.replayOf ? 'replay' : d.requestKept ? 'kept' : ''}</td></tr>`,
  );
  const list = !options.journalMounted
    ? html`<p>The delivery journal is off on this gateway, so there is nothing to show.</p>`
    : options.deliveries === null
      ? html``
      : options.deliveries.length === 0
        ? options.searchedBackTo && options.nextHref
          ? html`<p>No delivery received since ${time(options.searchedBackTo)} matches these filters.</p><p><a href="${options.nextHref}" rel="next">Search older deliveries</a></p>`
          : html`<p>No delivery matches these filters.</p>`
        : html`<table><caption class="muted">Deliveries, newest first</caption>
<thead><tr><th scope="col">Request id</th><th scope="col">Received</th><th scope="col">Route</th><th scope="col">Vendor</th><th scope="col">Store</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Transaction</th><th scope="col">Request</th></tr></thead>
<tbody>${rows}</tbody></table>${options.searchedBackTo ? html`<p class="muted">Searched back to ${time(options.searchedBackTo)}.</p>` : html``}${options.nextHref ? html`<p><a href="${options.nextHref}" rel="next">${options.searchedBackTo ? 'Search older deliveries' : 'Next page'}</a></p>` : html``}`;
  return consolePage(
    { title: 'Deliveries', section: 'deliveries', session: options.session, message: options.message },
    html`<form method="get" action="/console" role="search" aria-label="Filter deliveries"><div class="filters">${inputs}
<p class="actions"><button type="submit">Filter</button> <a href="/console">Clear</a></p></div></form>${list}`,
  );
}

function deliveryFacts(d: Delivery): SafeHtml {
  const facts: Array<[string, unknown]> = [
    ['Request id', d.requestId],
    ['Journal id', d.id],
    ['Received', time(d.receivedAt)],
    ['Route', `${d.method} ${d.route}`],
    ['Vendor', d.vendor],
    ['Store', d.storeId],
    ['Connection', d.connectionId],
    ['Event', d.eventType ? `${d.eventType}${d.eventId ? ` (${d.eventId})` : ''}` : null],
    ['Transaction', d.transactionId],
    ['Refund', d.refundId],
    ['Answer', `HTTP ${d.status}${d.outcome ? ` ${d.outcome}` : ''}`],
    ['Warning', d.warning],
    ['Duration', `${d.durationMs} ms`],
    ['Replay of', d.replayOf],
    ['Replayed by', d.replayedBy],
    ['Forced', d.replayForced ? 'yes: past a revoked secret or a deactivated connection' : null],
    ['Body SHA-256', d.bodySha256],
  ];
  return html`<dl class="facts">${facts.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl>`;
}

/** GET /console/deliveries/:id: one delivery, its story and replays; Replay when the gateway failed it and kept it. */
export function renderDelivery(
  options: Common & {
    delivery: Delivery;
    story: Array<{ step: string; outcome: string }>;
    replays: Delivery[];
    requestKept: boolean;
    /** Every delivery carrying the request id the page was opened by (empty when opened by journal id). */
    matches?: RequestIdMatch[];
  },
): string {
  const d = options.delivery;
  const matches = (options.matches ?? []).map(
    (m) =>
      html`<tr><td><a href="/console/deliveries/${encodeURIComponent(m.id)}">${m.id}</a></td><td>${time(m.receivedAt)}</td><td>${m.vendor ?? ''}</td><td>${m.storeId ?? ''}</td><td>${m.connectionId ?? ''}</td><td>${m.status}</td><td>${m.outcome ?? ''}</td><td>${m.authenticated ? 'yes' : 'no'}</td></tr>`,
  );
  const replayable = options.requestKept && d.status >= 500;
  const replays = options.replays.map(
    (r) =>
      html`<tr><td><a href="/console/deliveries/${encodeURIComponent(r.id)}">${r.requestId}</a></td><td>${time(r.receivedAt)}</td><td>${r.status}</td><td>${r.outcome ?? ''}</td><td>${r.replayedBy ?? ''}</td></tr>`,
  );
  return consolePage(
    { title: `Delivery ${d.requestId}`, section: 'deliveries', session: options.session, message: options.message },
    html`<p><a href="/console">&larr; All deliveries</a></p>
${deliveryFacts(d)}
<section aria-labelledby="story-heading"><h2 id="story-heading">Story</h2>
<ol>${options.story.map((s) => html`<li><strong>${s.step}</strong>: ${s.outcome}</li>`)}</ol></section>
${
  replayable
    ? html`<section aria-labelledby="replay-heading"><h2 id="replay-heading">Replay</h2>
<p>The gateway failed this delivery and kept the request. Once the cause is fixed, replay it through the same exactly-once pipeline (what landed meanwhile is answered as a duplicate).</p>
<form method="post" action="/console/deliveries/${encodeURIComponent(d.id)}/replay">${csrfField(options.session)}<button type="submit">Replay</button></form>
<p>A replay is refused when the connection has been deactivated or the secret the delivery was signed with has been revoked since. To replay it all the same, say so; the replay is journalled as forced.</p>
<form method="post" action="/console/deliveries/${encodeURIComponent(d.id)}/replay">${csrfField(options.session)}<input type="hidden" name="force" value="1"><button type="submit">Replay anyway (forced)</button></form></section>`
    : html``
}
${
  matches.length > 1
    ? html`<section aria-labelledby="matches-heading"><h2 id="matches-heading">Deliveries with this request id</h2>
<p>A caller chooses its X-Request-ID, and anyone may send it again: this page shows the newest that proved its connection. Open another by its journal id.</p>
<table><thead><tr><th scope="col">Journal id</th><th scope="col">Received</th><th scope="col">Vendor</th><th scope="col">Store</th><th scope="col">Connection</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Authenticated</th></tr></thead><tbody>${matches}</tbody></table></section>`
    : html``
}
<section aria-labelledby="replays-heading"><h2 id="replays-heading">Replays</h2>
${replays.length === 0 ? html`<p>None.</p>` : html`<table><thead><tr><th scope="col">Request id</th><th scope="col">When</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">By</th></tr></thead><tbody>${replays}</tbody></table>`}</section>`,
  );
}

/** GET /console/runs: catalog pulls and reconciliations, newest first. */
export function renderRuns(options: Common & { catalogRuns: CatalogRun[]; reconcileRuns: ReconcileRun[] | null }): string {
  const catalog = options.catalogRuns.map(
    (r) =>
      html`<tr><td>${time(r.startedAt)}</td><td>${r.vendor}</td><td>${copyableId(r.connectionId, `the connection id ${r.connectionId}`)}</td><td>${r.trigger}</td><td>${r.status}</td><td>${time(r.finishedAt)}</td><td>${r.error ?? ''}</td></tr>`,
  );
  const reconcile = (options.reconcileRuns ?? []).map(
    (r) =>
      html`<tr><td>${time(r.startedAt)}</td><td>${r.vendor}</td><td>${copyableId(r.connectionId, `the connection id ${r.connectionId}`)}</td><td>${r.trigger}</td><td>${r.status}</td><td>${time(r.since)} &ndash; ${time(r.until)}</td><td>${r.found}</td><td>${r.recovered}</td><td>${r.failed}</td><td>${r.error ?? ''}</td></tr>`,
  );
  return consolePage(
    { title: 'Runs', section: 'runs', session: options.session, message: options.message },
    html`<section aria-labelledby="catalog-heading"><h2 id="catalog-heading">Catalog runs</h2>
${catalog.length === 0 ? html`<p>No catalog runs yet.</p>` : html`<table><thead><tr><th scope="col">Started</th><th scope="col">Vendor</th><th scope="col">Connection</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col">Finished</th><th scope="col">Error</th></tr></thead><tbody>${catalog}</tbody></table>`}</section>
<section aria-labelledby="reconcile-heading"><h2 id="reconcile-heading">Reconciliation runs</h2>
${
  options.reconcileRuns === null
    ? html`<p>Reconciliation is off on this gateway.</p>`
    : reconcile.length === 0
      ? html`<p>No reconciliation runs yet.</p>`
      : html`<table><thead><tr><th scope="col">Started</th><th scope="col">Vendor</th><th scope="col">Connection</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col">Window</th><th scope="col">Found</th><th scope="col">Recovered</th><th scope="col">Failed</th><th scope="col">Error</th></tr></thead><tbody>${reconcile}</tbody></table>`
}</section>`,
  );
}
