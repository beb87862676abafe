import { COPY_SCRIPT_PATH } from './copy-script.js';
import { OPENAPI_PATH } from '../openapi/openapi-route.js';
import type { AnyAdapter } from '@loyalty-gateway/core';
import { html, page, trustedSvg, type SafeHtml } from './html.js';
import type { ShownWebhookUrl } from './webhook-url.js';

const CATEGORY: Record<AnyAdapter['display']['category'], string> = {
  pos: 'Point of sale',
  ecommerce: 'E-commerce',
  erp: 'ERP',
};

function chrome(title: string, content: SafeHtml): string {
  return page(
    title,
    html`<header><p><a href="/directory">Loyalty gateway &middot; Integrations</a></p></header>
<main id="main">${content}</main>
<footer class="muted"><p>Not listed? Any product can integrate through the generic webhook: see the <a href="${OPENAPI_PATH}">partner API documentation</a> (OpenAPI).</p></footer>`,
  );
}

/** GET /directory: every featured vendor, as cards linking to their guided setup. */
export function renderDirectory(adapters: readonly AnyAdapter[]): string {
  const cards = adapters.map(
    (a) => html`<li class="card">
  <span class="logo" aria-hidden="true">${trustedSvg(a.display.logoSvg)}</span>
  <h2><a href="/directory/${a.slug}">${a.display.name}</a></h2>
  <p class="muted">${CATEGORY[a.display.category]}</p>
  <p>${a.display.description}</p>
  <p><a href="/directory/${a.slug}" aria-label="Set up ${a.display.name}">Set up ${a.display.name} &rarr;</a></p>
</li>`,
  );
  const body =
    adapters.length === 0
      ? html`<h1>Featured integrations</h1><p>No featured integrations are enabled yet.</p>`
      : html`<h1>Featured integrations</h1>
<p>Connect your point-of-sale or online store in a few minutes. Pick your product for step-by-step setup.</p>
<ul class="cards" aria-label="Featured integrations">${cards}</ul>`;
  return chrome('Featured integrations', body);
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);

function paragraphs(text: string): SafeHtml[] {
  return text.split(/\n{2,}/).map((p) => html`<p>${p.trim()}</p>`);
}

/** GET /directory/{slug}: the guided setup page built from the adapter's declared steps. */
export function renderSetupPage(adapter: AnyAdapter, shown: ShownWebhookUrl): string {
  const webhookUrl = shown.url ?? 'the webhook URL your loyalty operator gives you';
  const values = { webhookUrl, storeIdLabel: adapter.setup.storeIdLabel, name: adapter.display.name };
  const steps = adapter.setup.steps.map(
    (step) => html`<li><h3>${fill(step.title, values)}</h3>${paragraphs(fill(step.body, values))}</li>`,
  );
  const credentialRows = adapter.setup.credentials.map(
    (c) =>
      html`<tr><th scope="row">${c.label}</th><td><code>${c.key}</code></td><td>${c.help}${c.secret ? ' (kept encrypted; never shown again)' : ''}</td></tr>`,
  );
  const body = html`<h1><span class="logo" aria-hidden="true">${trustedSvg(adapter.display.logoSvg)}</span> Set up ${adapter.display.name}</h1>
<p>${adapter.display.description}</p>
<section aria-labelledby="url-heading">
  <h2 id="url-heading">Your webhook URL</h2>
  ${
    shown.url === null
      ? html`<p>This gateway's public address is not configured yet (GATEWAY_PUBLIC_URL): ask your loyalty operator for the webhook URL to paste into ${adapter.display.name}.</p>`
      : html`<p>Paste this address where ${adapter.display.name} asks for a webhook or notification URL${shown.source === 'notificationUrl' ? ', exactly as shown (it is part of what is signed)' : ''}:</p>
  <p><span class="url" id="webhook-url">${shown.url}</span>
     <button type="button" data-copy="webhook-url" aria-describedby="webhook-url">Copy</button>
     <span role="status" aria-live="polite" id="copy-status"></span></p>${
       shown.source === 'request'
         ? html`<p class="muted">Derived from the address you opened this page with, because the gateway has no configured public address: check it with your operator.</p>`
         : html``
     }`
  }
</section>
<section aria-labelledby="store-heading">
  <h2 id="store-heading">Your store identifier</h2>
  <p>When you create the connection, enter your <strong>${adapter.setup.storeIdLabel}</strong> character for character: case, spaces and slashes count.</p>
</section>
<section aria-labelledby="creds-heading">
  <h2 id="creds-heading">What you need to supply</h2>
  ${
    credentialRows.length === 0
      ? html`<p>Nothing beyond the store identifier.</p>`
      : html`<table><caption class="muted">Connection credentials</caption><thead><tr><th scope="col">Item</th><th scope="col">Key</th><th scope="col">Where to find it</th></tr></thead><tbody>${credentialRows}</tbody></table>`
  }
</section>
<section aria-labelledby="steps-heading">
  <h2 id="steps-heading">Steps</h2>
  <ol class="steps">${steps}</ol>
</section>
<section aria-labelledby="test-heading">
  <h2 id="test-heading">How to test</h2>
  <p>Complete a small test sale for a customer who is a loyalty member. Within a minute the member's points balance shows the sale.
  If nothing arrives, check that the webhook URL above is saved in ${adapter.display.name} and that the ${adapter.setup.storeIdLabel} matches the connection exactly.</p>
  <p>Refunds made in ${adapter.display.name} reverse the points automatically.</p>
</section>
<script src="${COPY_SCRIPT_PATH}" defer></script>`;
  return chrome(`Set up ${adapter.display.name}`, body);
}
