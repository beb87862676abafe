import type { AdapterPreview, AnyAdapter, PreviewedEvent } from '@loyalty-gateway/core';
import { html, type SafeHtml } from '../directory/html.js';
import { consolePage, csrfField, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';

/** What the operator typed: kept when the page answers, so a payload is tried again with one change. */
export interface TryPayloadForm {
  payload?: string | undefined;
  headers?: string | undefined;
  store?: string | undefined;
  fetchBack?: boolean | undefined;
}

/** What an event would do, in words: the preview's status, its points and cards, or the ledger's refusal. */
function wouldDo(event: PreviewedEvent): string {
  if (event.refused) return `refused: ${event.refused.code} (${event.refused.message})`;
  const p = event.preview!;
  if (p.status !== 'would_process') return p.status;
  const cards = p.stampsUpdated.map((s) => `, ${s.rewardTitle} ${s.current}/${s.required}${s.completed ? ' (completed)' : ''}`).join('');
  return `would process: ${p.pointsEarned} ${p.pointsEarned === 1 ? 'point' : 'points'}${p.membershipId ? ` for ${p.membershipId}` : ''}${cards}`;
}

function results(preview: AdapterPreview): SafeHtml {
  if (preview.handshake)
    return html`<section aria-labelledby="result-heading"><h2 id="result-heading">Result</h2><p class="notice">A setup call (handshake), nothing to map: ${preview.handshake.note}</p></section>`;
  const units = preview.units.map((unit, u) => {
    const rows = unit.events.map(
      (
        e,
      ) => html`<tr><td data-label="Event"><code>${e.envelope.eventType}</code></td><td data-label="Transaction"><code class="id">${e.envelope.transaction.id}</code></td>
<td data-label="Would do">${wouldDo(e)}</td><td data-label="Warning">${e.preview?.warning ?? ''}</td></tr>`,
    );
    const envelopes = unit.events.map(
      (e, i) =>
        html`<details><summary>Envelope ${i + 1}: ${e.envelope.eventType}</summary><pre class="command"><code>${JSON.stringify(e.envelope, null, 2)}</code></pre></details>`,
    );
    return html`<h3 id="unit-${u}">Store <code class="id">${unit.storeId}</code></h3>
${unit.connection ? html`<p>Mapped for connection <code class="id">${unit.connection.id}</code> (store ${unit.connection.storeId}, merchant ${unit.connection.merchantId}, outlet ${unit.connection.outletId}).</p>` : html``}
${unit.note ? html`<p class="notice">Adapter note: ${unit.note}</p>` : html``}
${unit.error ? html`<p class="error">${unit.error.code}: ${unit.error.message}${unit.error.cause ? html` Cause: ${unit.error.cause.call}: ${unit.error.cause.what}.` : html``}</p>` : html``}
${
  rows.length > 0
    ? html`<table class="stack" aria-labelledby="unit-${u}"><thead><tr><th scope="col">Event</th><th scope="col">Transaction</th><th scope="col">Would do</th><th scope="col">Warning</th></tr></thead><tbody>${rows}</tbody></table>${envelopes}`
    : html``
}`;
  });
  const unreadable = preview.unreadable.map((p) => html`<li>Store <code class="id">${p.storeId}</code>: ${p.detail}</li>`);
  return html`<section aria-labelledby="result-heading"><h2 id="result-heading">Result</h2>
<p class="muted">Nothing was committed: no points, no cache entry, no journal entry. The same payload sent to the webhook now would do this.</p>
${preview.units.length === 0 ? html`<p>The payload names no store: nothing to map.</p>` : html``}${units}
${unreadable.length > 0 ? html`<p>Parts the adapter could not read:</p><ul>${unreadable}</ul>` : html``}</section>`;
}

/**
 * GET and POST /console/vendors/:slug/try: a native payload and the headers the vendor would send,
 * previewed through the adapter (POST /admin/adapters/{slug}/preview's own function), the answer
 * under the form, which keeps what was typed.
 */
export function renderTryPayload(options: {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
  adapter: AnyAdapter;
  stores: ReadonlyArray<{ storeId: string; active: boolean }>;
  typed?: TryPayloadForm | undefined;
  preview?: AdapterPreview | undefined;
}): string {
  const a = options.adapter;
  const typed = options.typed ?? {};
  const storeOptions = options.stores.map(
    (s) =>
      html`<option value="${s.storeId}"${typed.store === s.storeId ? html` selected` : html``}>${s.storeId}${s.active ? '' : ' (inactive)'}</option>`,
  );
  return consolePage(
    { title: `${a.display.name}: try a payload`, section: 'vendors', session: options.session, message: options.message },
    html`<p><a href="/console/vendors">&larr; Vendors</a></p>
<p class="muted">Paste a payload as ${a.display.name} sends it to <code>/webhooks/${a.slug}</code>: the adapter maps it as its webhook would (its signature is not checked) and each canonical envelope is previewed as a sale would be, nothing committed. The same as <code>loyalty-gateway admin adapters preview ${a.slug} --file payload.json</code>.</p>
<form method="post" action="/console/vendors/${encodeURIComponent(a.slug)}/try">${csrfField(options.session)}
<p class="field"><label for="t-payload">Payload (the request body, exactly)</label><textarea id="t-payload" name="payload" rows="14" spellcheck="false" required>${typed.payload ?? ''}</textarea></p>
<p class="field"><label for="t-headers">Headers the vendor sends</label><textarea id="t-headers" name="headers" rows="4" spellcheck="false" aria-describedby="t-headers-help">${typed.headers ?? ''}</textarea><span class="help" id="t-headers-help">One <code>Name: value</code> a line (its store header, its topic); signature headers are not needed.</span></p>
<p class="field"><label for="t-store">Map for the connection of</label><select id="t-store" name="store"><option value="">the store the payload names</option>${storeOptions}</select></p>
<p class="field check"><input type="checkbox" id="t-fetch" name="fetchBack" value="1"${typed.fetchBack ? html` checked` : html``}><label for="t-fetch">Fetch back from ${a.display.name}'s API with the connection's credentials, when the mapping needs to</label></p>
<p><button type="submit" class="primary">Preview</button></p></form>
${options.preview ? results(options.preview) : html``}`,
  );
}
