import type { AnyAdapter, SetupFormField } from '@loyalty-gateway/core';
import { html } from '../directory/html.js';
import { copyButton } from './console-copy-script.js';
import { consolePage, csrfField, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { setupInputs, type ConsoleForm } from './setup-form.js';

interface Common {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
}

export interface ConsoleVendor {
  slug: string;
  name: string;
  tier: string;
  featuredAdapter: boolean;
  hasSettings: boolean;
  exists: boolean;
}

/** A vendor's connections: every store a tier change affects, and how many of them are active. */
export interface VendorStores {
  total: number;
  active: number;
}

const storesText = (stores: VendorStores | undefined) =>
  !stores || stores.total === 0 ? 'none' : `${stores.total} (${stores.active} active)`;

/** GET /console/vendors: every vendor and registered adapter, what each can do next, and a form for a new generic vendor. */
export function renderVendors(
  options: Common & { vendors: ConsoleVendor[]; stores: ReadonlyMap<string, VendorStores>; typed?: ConsoleForm | undefined },
): string {
  const slugPath = (v: ConsoleVendor) => `/console/vendors/${encodeURIComponent(v.slug)}`;
  const rows = options.vendors.map((v) => {
    const actions = [
      v.featuredAdapter ? html`<a href="${slugPath(v)}/settings" aria-label="Provider settings of ${v.name}">Settings</a>` : null,
      v.featuredAdapter ? html`<a href="${slugPath(v)}/try" aria-label="Try a ${v.name} payload">Try a payload</a>` : null,
      v.tier === 'featured'
        ? html`<a href="${slugPath(v)}/demote" aria-label="Demote ${v.name}">Demote&hellip;</a>`
        : v.featuredAdapter
          ? html`<a href="${slugPath(v)}/promote" aria-label="Promote ${v.name}">Promote&hellip;</a>`
          : null,
    ].filter((a) => a !== null);
    return html`<tr><th scope="row">${v.name}</th><td data-label="Slug"><code class="id">${v.slug}</code>${copyButton(v.slug, `the slug ${v.slug}`)}</td>
<td data-label="Tier">${v.tier}</td><td data-label="Adapter">${v.featuredAdapter ? 'registered' : 'none (generic webhook)'}</td>
<td data-label="Settings">${v.featuredAdapter ? (v.hasSettings ? 'set' : 'none') : 'not used'}</td><td data-label="Stores">${storesText(options.stores.get(v.slug))}</td>
<td data-label="Actions">${actions.length > 0 ? html`<div class="actions">${actions}</div>` : html``}</td></tr>`;
  });
  const typed = options.typed ?? {};
  return consolePage(
    { title: 'Vendors', section: 'vendors', session: options.session, message: options.message },
    html`<p class="muted">Promotion lists a vendor in the public directory and opens its featured webhook, /webhooks/{slug}; it needs a registered adapter and provider settings that fit it (Settings). The slug is what the CLI and the vendor's X-Service-Vendor header name.</p>
<table class="stack"><thead><tr><th scope="col">Vendor</th><th scope="col">Slug</th><th scope="col">Tier</th><th scope="col">Adapter</th><th scope="col">Settings</th><th scope="col">Stores</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>
<section aria-labelledby="new-vendor-heading"><h2 id="new-vendor-heading">Add a generic vendor</h2>
<p class="muted">A vendor that maps its data to the canonical envelope and signs it for /webhooks/generic. The slug is permanent: the vendor sends it as X-Service-Vendor.</p>
<form method="post" action="/console/vendors">${csrfField(options.session)}<div class="fields">
<p><label for="v-slug">Slug</label><input id="v-slug" name="slug" value="${typed.slug ?? ''}" placeholder="e.g. acme-pos" spellcheck="false" required aria-describedby="v-slug-help"><span class="help" id="v-slug-help">Lowercase letters, digits and single hyphens.</span></p>
<p><label for="v-name">Name</label><input id="v-name" name="name" value="${typed.name ?? ''}" placeholder="e.g. Acme POS" required></p></div>
<p><button type="submit" class="primary">Add vendor</button></p></form></section>`,
  );
}

/**
 * GET /console/vendors/:slug/promote and /demote: what the change does to the vendor's stores,
 * counted, before it is made. Demotion says plainly that every featured delivery is then refused.
 */
export function renderVendorChange(
  options: Common & { vendor: ConsoleVendor; action: 'promote' | 'demote'; stores: VendorStores },
): string {
  const v = options.vendor;
  const { total, active } = options.stores;
  const stores = total === 1 ? '1 store' : `${total} stores`;
  const door = `POST /webhooks/${v.slug}`;
  const said =
    options.action === 'promote'
      ? html`<p>Promoting ${v.name} opens <code>${door}</code> to ${v.name}'s own webhooks and lists ${v.name} in the public directory. ${
          total === 0
            ? html`No store is connected to ${v.name} yet: connect them afterwards (Connections), each then sends ${v.name}'s own payloads there.`
            : html`It affects <strong>${stores}</strong> (${active} with an active connection): each can then send ${v.name}'s own payloads there, signed as ${v.name} signs them.`
        } /webhooks/generic keeps accepting ${v.name}'s stores; the ledger is unchanged.</p>
${v.hasSettings ? html`` : html`<p class="warning">${v.name} has no provider settings yet: unless its adapter needs none, the promotion is refused until they are set. <a href="/console/vendors/${encodeURIComponent(v.slug)}/settings">Set them first</a>.</p>`}`
      : html`<p class="warning"><strong>Demoting ${v.name} makes every delivery to <code>${door}</code> answer 404 (vendor_not_featured)</strong>, from all of its <strong>${stores}</strong> (${active} with an active connection), until it is promoted again. Whatever ${v.name} sends meanwhile earns nothing (its retries are refused too), and ${v.name} leaves the public directory.</p>
<p>Connections, provider settings and the ledger stay. Stores that send canonical events to /webhooks/generic are not affected.</p>`;
  const verb = options.action === 'promote' ? 'Promote' : 'Demote';
  return consolePage(
    { title: `${verb} ${v.name}?`, section: 'vendors', session: options.session, message: options.message },
    html`${said}
<form method="post" action="/console/vendors/${encodeURIComponent(v.slug)}/${options.action}" class="actions">${csrfField(options.session)}<button type="submit" class="${options.action === 'demote' ? 'danger' : 'primary'}">${verb} ${v.name} (${stores})</button> <a href="/console/vendors">Cancel</a></form>`,
  );
}

/** GET /console/vendors/:slug/settings: the adapter's settings as a form; secrets write-only. */
export function renderSettingsForm(
  options: Common & {
    adapter: AnyAdapter;
    vendorName: string;
    fields: readonly SetupFormField[];
    stored: Record<string, unknown> | null;
    typed?: ConsoleForm | undefined;
    /** The stored settings carry an auth override (set through the admin API), which the form keeps. */
    authOverride: boolean;
  },
): string {
  const a = options.adapter;
  const inputs = setupInputs(options.fields, { prefix: 'settings', stored: options.stored, typed: options.typed });
  return consolePage(
    { title: `${options.vendorName}: provider settings`, section: 'vendors', session: options.session, message: options.message },
    html`<p><a href="/console/vendors">&larr; Vendors</a></p>
<p class="muted">One set for every ${a.display.name} store, checked by the ${a.display.name} adapter exactly as <code>PUT /admin/vendors/${a.slug}/settings</code> checks them, and kept encrypted. Secrets are never shown again: leave a secret empty to keep it.${options.authOverride ? ' The auth override set through the admin API is kept.' : ''}</p>
${
  options.fields.length === 0
    ? html`<p>${a.display.name} needs no provider settings: each store signs with its connection's secret.</p>`
    : html`<form method="post" action="/console/vendors/${encodeURIComponent(a.slug)}/settings" autocomplete="off">${csrfField(options.session)}${inputs}
<p class="actions"><button type="submit" class="primary">Save settings</button> <a href="/console/vendors">Cancel</a></p></form>`
}`,
  );
}
