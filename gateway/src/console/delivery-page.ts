import { causeText } from '../admin/delivery-routes.js';
import type { Delivery, RequestIdMatch } from '../journal/index.js';
import { html, SafeHtml } from '../directory/html.js';
import { NOTHING_EARNED_TEXT } from '../webhooks/nothing-earned.js';
import { consolePage, csrfField, time, type ConsoleMessage } from './console-html.js';
import { earnedText } from './deliveries-page.js';
import type { ConsoleSession } from './console-session.js';

const deliveryLink = (id: string): SafeHtml => html`<a class="clip" href="/console/deliveries/${encodeURIComponent(id)}">${id}</a>`;

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
    ['Earned', earnedText(d) || null],
    ['Warning', d.warning],
    ['Cause', d.failure ? causeText(d.failure) : null],
    ['Duration', `${d.durationMs} ms`],
    ['Recovered by', d.recoveredBy ? deliveryLink(d.recoveredBy) : null],
    ['Replay of', d.replayOf ? deliveryLink(d.replayOf) : null],
    ['Replayed by', d.replayedBy],
    ['Forced', d.replayForced ? 'yes: past a revoked secret or a deactivated connection' : null],
    ['Body SHA-256', d.bodySha256],
  ];
  return html`<dl class="facts">${facts
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => html`<dt>${k}</dt><dd>${v instanceof SafeHtml ? v : String(v)}</dd>`)}</dl>`;
}

/**
 * Why, first: a delivery a replay recovered says so and by which; a failure on our side says its
 * cause (which call, what happened, how long); a processed sale that earned nothing says why.
 */
function why(d: Delivery, replays: readonly Delivery[]): SafeHtml {
  if (d.recoveredBy) {
    const replay = replays.find((r) => r.id === d.recoveredBy);
    return html`<p class="notice">Recovered: replay ${deliveryLink(d.recoveredBy)} answered ${replay ? `HTTP ${replay.status} ${replay.outcome ?? ''}`.trim() : 'it'}${
      d.failure ? ` (this delivery had failed: ${causeText(d.failure)})` : ''
    }. Nothing is left to replay.</p>`;
  }
  if (d.failure) return html`<p class="error">Failed on the gateway's side, HTTP ${d.status}: ${causeText(d.failure)}.</p>`;
  if (d.nothingEarned)
    return html`<p class="warning">Processed, but earned nothing: ${NOTHING_EARNED_TEXT[d.nothingEarned]}.${d.warning ? ` ${d.warning}` : ''}</p>`;
  return html``;
}

/** GET /console/deliveries/:id: one delivery, why it ended as it did, its story and replays; Replay while it is replayable. */
export function renderDelivery(options: {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
  delivery: Delivery;
  story: Array<{ step: string; outcome: string }>;
  replays: Delivery[];
  requestKept: boolean;
  /** A failure on our side whose request is kept and that no replay has answered yet (showDelivery). */
  replayable?: boolean;
  /** Every delivery carrying the request id the page was opened by (empty when opened by journal id). */
  matches?: RequestIdMatch[];
}): string {
  const d = options.delivery;
  const matches = (options.matches ?? []).map(
    (m) =>
      html`<tr><td>${deliveryLink(m.id)}</td><td class="nowrap">${time(m.receivedAt)}</td><td>${m.vendor ?? ''}</td><td>${m.storeId ?? ''}</td><td><code class="id">${m.connectionId ?? ''}</code></td><td>${m.status}</td><td>${m.outcome ?? ''}</td><td>${m.authenticated ? 'yes' : 'no'}</td></tr>`,
  );
  const replayable = options.replayable ?? (options.requestKept && d.status >= 500 && !d.recoveredBy);
  const replays = options.replays.map(
    (r) =>
      html`<tr><td><a class="clip" href="/console/deliveries/${encodeURIComponent(r.id)}">${r.requestId}</a></td><td>${time(r.receivedAt)}</td><td>${r.status}</td><td>${r.outcome ?? ''}</td><td>${r.replayedBy ?? ''}</td></tr>`,
  );
  return consolePage(
    { title: `Delivery ${d.requestId}`, section: 'deliveries', session: options.session, message: options.message },
    html`<p><a href="/console">&larr; All deliveries</a></p>
${why(d, options.replays)}
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
