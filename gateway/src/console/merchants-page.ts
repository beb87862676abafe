import type { MerchantSummary } from '@loyalty-gateway/core';
import { REMOTE_ENGINE_MERCHANTS } from '../admin/merchant-routes.js';
import { html } from '../directory/html.js';
import { copyButton } from './console-copy-script.js';
import { consolePage, csrfField, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import type { ConsoleForm } from './setup-form.js';

/** The new-merchant form's fields: the admin API's (and the seed file's) merchant fields. */
const MERCHANT_FIELDS = [
  ['id', 'Merchant id', 'e.g. m-bean', 'Permanent: connections and the CLI name the merchant by it.'],
  ['name', 'Name', 'e.g. Bean There', ''],
  ['currency', 'Currency', 'e.g. USD', 'ISO 4217, upper case.'],
  ['defaultCountryCode', 'Default country code', 'e.g. 1', 'Digits without +: completes bare local phone numbers.'],
  ['earnRate', 'Earn rate', 'e.g. 1', 'Points per unit of currency: points = floor(total × rate).'],
  ['redemptionRate', 'Redemption rate', 'e.g. 100', 'Points per unit of currency when spending points.'],
] as const;

/** GET /console/merchants: the loyalty engine's merchants and outlets with their ids, and forms to add both. */
export function renderMerchants(options: {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
  merchants: MerchantSummary[];
  /** Merchants can be created here (the embedded reference engine); a remote engine keeps its own. */
  canCreate: boolean;
  /** What was typed into a form that came back refused: which form, and its fields. */
  typed?: { form: 'merchant' | 'outlet'; merchantId?: string; fields: ConsoleForm } | undefined;
}): string {
  const typed = options.typed;
  const typedIn = (form: 'merchant' | 'outlet', merchantId?: string) =>
    typed && typed.form === form && typed.merchantId === merchantId ? typed.fields : {};
  const cards = options.merchants.map((m) => {
    const outletValues = typedIn('outlet', m.id);
    const formId = `o-${m.id}`.replace(/[^\w-]/g, '_');
    const outlets = m.outlets.map(
      (o) =>
        html`<tr><th scope="row">${o.name}</th><td data-label="Outlet id"><code class="id">${o.id}</code>${copyButton(o.id, `the outlet id ${o.id}`)}</td></tr>`,
    );
    return html`<section class="card" aria-label="${m.name}"><h2>${m.name}</h2>
<p>Merchant id <code class="id">${m.id}</code>${copyButton(m.id, `the merchant id ${m.id}`)} &middot; ${m.currency}</p>
${
  outlets.length === 0
    ? html`<p>No outlets yet: a connection needs one.</p>`
    : html`<table class="stack compact"><thead><tr><th scope="col">Outlet</th><th scope="col">Outlet id</th></tr></thead><tbody>${outlets}</tbody></table>`
}
${
  options.canCreate
    ? html`<form method="post" action="/console/merchants/${encodeURIComponent(m.id)}/outlets" aria-label="Add an outlet to ${m.name}">${csrfField(options.session)}<div class="fields">
<p><label for="${formId}-id">New outlet id</label><input id="${formId}-id" name="id" value="${outletValues.id ?? ''}" placeholder="e.g. o-downtown" spellcheck="false" required></p>
<p><label for="${formId}-name">Outlet name</label><input id="${formId}-name" name="name" value="${outletValues.name ?? ''}" placeholder="e.g. Downtown" required></p>
</div><p><button type="submit" aria-label="Add outlet to ${m.name}">Add outlet</button></p></form>`
    : html``
}</section>`;
  });
  const merchantValues = typedIn('merchant');
  const inputs = MERCHANT_FIELDS.map(
    ([key, label, placeholder, help]) =>
      html`<p><label for="m-${key}">${label}</label><input id="m-${key}" name="${key}" value="${merchantValues[key] ?? ''}" placeholder="${placeholder}" spellcheck="false" required${help ? html` aria-describedby="m-${key}-help"` : html``}>${help ? html`<span class="help" id="m-${key}-help">${help}</span>` : html``}</p>`,
  );
  return consolePage(
    { title: 'Merchants', section: 'merchants', session: options.session, message: options.message },
    html`<p class="muted">Merchants and their outlets in the loyalty engine: a connection maps a vendor's store to one outlet.</p>
${cards.length === 0 ? html`<p>No merchants yet.</p>` : html`${cards}`}
<section aria-labelledby="new-merchant-heading"><h2 id="new-merchant-heading">Add a merchant</h2>
${
  options.canCreate
    ? html`<form method="post" action="/console/merchants">${csrfField(options.session)}<div class="fields">${inputs}
</div><p><button type="submit" class="primary">Add merchant</button></p></form>`
    : html`<p>${REMOTE_ENGINE_MERCHANTS}</p>`
}</section>`,
  );
}
