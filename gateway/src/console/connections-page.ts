import type { AnyAdapter, MerchantSummary, SetupFormField } from '@loyalty-gateway/core';
import type { ConnectionSkew } from '../http/clock-skew.js';
import type { ConnectionActivityView } from '../http/connection-activity.js';
import type { ConnectionSummary } from '../stores/index.js';
import { html, type SafeHtml } from '../directory/html.js';
import { copyableId, copyFromButton } from './console-copy-script.js';
import { activityText, consolePage, csrfField, skewText, time, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { setupInputs, type ConsoleForm } from './setup-form.js';

interface Common {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
}

/** A vendor's own id (a slug, a merchant or outlet id, a store id): kept on one line unless it is too long for a column. */
const idText = (value: string): SafeHtml => (value.length <= 40 ? html`<span class="id">${value}</span>` : html`${value}`);

/** A merchant's outlet as the connection form offers it: one value carrying both ids. */
export const outletChoice = (merchantId: string, outletId: string) => JSON.stringify([merchantId, outletId]);

/** The merchant and outlet ids of an outletChoice (anything else: none, and the admin API names the missing field). */
export function readOutletChoice(value: string | undefined): { merchantId?: string; outletId?: string } {
  try {
    const parsed: unknown = JSON.parse(value ?? '');
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((id) => typeof id === 'string'))
      return { merchantId: parsed[0] as string, outletId: parsed[1] as string };
  } catch {
    // not a choice the form offered
  }
  return {};
}

/** GET /console/connections. */
export function renderConnections(
  options: Common & {
    connections: Array<ConnectionSummary & { skew: ConnectionSkew | null; activity: ConnectionActivityView | null }>;
    vendors: Array<{ slug: string; name: string }>;
  },
): string {
  const action = (c: ConnectionSummary, path: string, label: string) =>
    html`<form class="inline" method="post" action="/console/connections/${encodeURIComponent(c.id)}/${path}">${csrfField(options.session)}<button type="submit" aria-label="${label} ${c.vendor}/${c.storeId}">${label}</button></form>`;
  const rows = options.connections.map(
    (
      c,
    ) => html`<tr><td data-label="Vendor / store">${idText(c.vendor)} / ${idText(c.storeId)}<br><span class="muted">id</span> ${copyableId(c.id, `the connection id of ${c.vendor}/${c.storeId}`)}</td>
<td data-label="Merchant / outlet">${idText(c.merchantId)} / ${idText(c.outletId)}</td><td data-label="Active">${c.active ? 'yes' : 'no'}</td>
<td data-label="Last seen">${c.activity ? html`${time(c.activity.lastSeenAt)} (${String(c.activity.lastStatus)})` : 'not since this process started'}</td><td data-label="Last hour">${activityText(c.activity)}</td>
<td data-label="Clock skew">${skewText(c.skew)}</td><td data-label="Actions"><div class="actions"><a href="/console/connections/${encodeURIComponent(c.id)}/rotate" aria-label="Rotate the secret of ${c.vendor}/${c.storeId}">Rotate&hellip;</a>${c.active ? action(c, 'deactivate', 'Deactivate') : action(c, 'activate', 'Activate')}</div></td></tr>`,
  );
  const vendorOptions = options.vendors.map((v) => html`<option value="${v.slug}">${v.name} (${v.slug})</option>`);
  return consolePage(
    { title: 'Connections', section: 'connections', session: options.session, message: options.message },
    html`${
      rows.length === 0
        ? html`<p>No connections yet.</p>`
        : html`<p class="muted">A connection is one vendor's store mapped to a merchant's outlet, with its secret. The connection id is what <code>admin connections rotate</code>, <code>reconcile run</code> and <code>subscriptions</code> take. Last seen, the last hour and clock skew are as this gateway process answered the connection's requests.</p>
<table class="stack"><thead><tr><th scope="col">Vendor / store, connection id</th><th scope="col">Merchant / outlet</th><th scope="col">Active</th><th scope="col">Last seen</th><th scope="col">Last hour</th><th scope="col">Last clock skew</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>`
    }
<section aria-labelledby="new-connection-heading"><h2 id="new-connection-heading">New connection</h2>
${
  vendorOptions.length === 0
    ? html`<p>Add a vendor first (<a href="/console/vendors">Vendors</a>).</p>`
    : html`<form method="get" action="/console/connections/new" class="fields"><p><label for="c-vendor">Vendor</label><select id="c-vendor" name="vendor">${vendorOptions}</select></p>
<p><button type="submit">Continue</button></p></form>`
}</section>`,
  );
}

/** GET /console/connections/new?vendor=…: the store, the outlet it earns for, and the adapter's credentials (generated, write-only). */
export function renderNewConnection(
  options: Common & {
    vendor: { slug: string; name: string; tier: string };
    adapter: AnyAdapter | undefined;
    credentialFields: readonly SetupFormField[];
    merchants: MerchantSummary[];
    typed?: ConsoleForm | undefined;
  },
): string {
  const typed = options.typed ?? {};
  const v = options.vendor;
  const choices = options.merchants.flatMap((m) =>
    m.outlets.map((o) => {
      const value = outletChoice(m.id, o.id);
      return html`<option value="${value}"${typed.outlet === value ? html` selected` : html``}>${m.name} (${m.id}) / ${o.name} (${o.id})</option>`;
    }),
  );
  const storeLabel = options.adapter ? options.adapter.setup.storeIdLabel : 'Store id';
  const credentials = setupInputs(options.credentialFields, { prefix: 'credentials', stored: null });
  return consolePage(
    { title: `New ${v.name} connection`, section: 'connections', session: options.session, message: options.message },
    html`<p><a href="/console/connections">&larr; Connections</a></p>
${
  choices.length === 0
    ? html`<p>No merchant has an outlet yet: a connection earns for one. <a href="/console/merchants">Add a merchant and an outlet</a> first.</p>`
    : html`<form method="post" action="/console/connections" autocomplete="off">${csrfField(options.session)}<input type="hidden" name="vendor" value="${v.slug}">
<div class="field"><label for="c-store">${storeLabel} (required)</label><input id="c-store" name="storeId" value="${typed.storeId ?? ''}" spellcheck="false" required aria-describedby="c-store-help">
<p class="help" id="c-store-help">The store id${options.adapter ? '' : ' (X-Service-Store)'}, exactly as ${v.name} sends it: case, spaces and slashes count.</p></div>
<div class="field"><label for="c-outlet">Merchant / outlet</label><select id="c-outlet" name="outlet">${choices}</select></div>
${
  credentials.length > 0
    ? html`<fieldset><legend>${v.name} credentials for this store (kept encrypted, never shown again)</legend>${credentials}</fieldset>`
    : html``
}
<p class="actions"><button type="submit" class="primary">Create connection</button> <a href="/console/connections">Cancel</a></p></form>`
}`,
  );
}

/** POST /console/connections and …/rotate: the secret, once, with a Copy button. */
export function renderSecret(
  options: Common & {
    title: string;
    connection: ConnectionSummary;
    secret: string;
    notice: string;
    /** A rotation: until when the previous secrets still verify. */
    previousSecretsValidUntil?: Date | undefined;
    /** The vendor's guided setup page, for a featured vendor. */
    directoryHref?: string | undefined;
  },
): string {
  const c = options.connection;
  return consolePage(
    { title: options.title, section: 'connections', session: options.session, message: { kind: 'notice', text: options.notice } },
    html`<dl class="facts"><dt>Vendor</dt><dd><code class="id">${c.vendor}</code></dd>
<dt>Store</dt><dd>${copyableId(c.storeId, 'the store id')}</dd>
<dt>Merchant / outlet</dt><dd>${c.merchantId} / ${c.outletId}</dd>
<dt>Connection id</dt><dd>${copyableId(c.id, 'the connection id')}</dd>
<dt>Secret</dt><dd class="secret"><code id="secret">${options.secret}</code>${copyFromButton('secret', 'the secret')}</dd>
${options.previousSecretsValidUntil ? html`<dt>Previous secrets valid until</dt><dd>${time(options.previousSecretsValidUntil)}</dd>` : html``}</dl>
<p>Give the secret to the merchant with the store id. To check the connection end to end:</p>
<pre class="command"><code>npx loyalty-gateway send-sample --vendor ${c.vendor} --store ${c.storeId} --secret &lt;secret&gt;</code></pre>
${options.directoryHref ? html`<p>The merchant's setup steps: <a href="${options.directoryHref}">${options.directoryHref}</a>.</p>` : html``}
<p><a href="/console/connections">&larr; Connections</a></p>`,
  );
}

/** Overlaps the rotate form offers (seconds), the admin API's default first. */
const OVERLAPS: Array<[number, string]> = [
  [86_400, '24 hours (the default)'],
  [3_600, '1 hour'],
  [7 * 86_400, '7 days'],
  [30 * 86_400, '30 days (the most)'],
  [0, 'none: the previous secrets stop now'],
];

/** GET /console/connections/:id/rotate: how long the previous secrets keep working, then rotate. */
export function renderRotate(options: Common & { connection: ConnectionSummary }): string {
  const c = options.connection;
  return consolePage(
    { title: `Rotate the secret of ${c.vendor}/${c.storeId}`, section: 'connections', session: options.session, message: options.message },
    html`<p>A new secret is issued and shown once. The previous secrets keep verifying for the overlap you choose, so the merchant switches without a failed delivery; with no overlap every request still signed with them is refused at once.</p>
<form method="post" action="/console/connections/${encodeURIComponent(c.id)}/rotate">${csrfField(options.session)}
<div class="field"><label for="r-overlap">Previous secrets stay valid for</label><select id="r-overlap" name="overlapSeconds">${OVERLAPS.map(([seconds, label]) => html`<option value="${String(seconds)}">${label}</option>`)}</select></div>
<p class="actions"><button type="submit" class="primary">Rotate the secret</button> <a href="/console/connections">Cancel</a></p></form>`,
  );
}
