import type { ConnectionSkew } from '../http/clock-skew.js';
import type { ConnectionActivityView } from '../http/connection-activity.js';
import { html, page, type SafeHtml } from '../directory/html.js';
import { CONSOLE_COPY_SCRIPT_PATH } from './console-copy-script.js';
import type { ConsoleSession } from './console-session.js';

export type ConsoleSection = 'deliveries' | 'connections' | 'merchants' | 'vendors' | 'runs';

/** A line at the top of the page: what an action did, or why it failed (in plain words). */
export interface ConsoleMessage {
  kind: 'notice' | 'error';
  text: string;
}

const SECTIONS: Array<[ConsoleSection, string, string]> = [
  ['deliveries', 'Deliveries', '/console'],
  ['connections', 'Connections', '/console/connections'],
  ['merchants', 'Merchants', '/console/merchants'],
  ['vendors', 'Vendors', '/console/vendors'],
  ['runs', 'Runs', '/console/runs'],
];

/**
 * The layout every console page shares. Wide enough for a table of ids at 1280 px (ids and times
 * never wrap mid-id: a request id broken over four lines cannot be read or copied); below 48rem
 * the page is one column, `table.stack` tables turn each row into a block whose cells name their
 * column (`data-label`), and any other table scrolls inside itself instead of widening the page.
 */
const CONSOLE_STYLE = `
header, main, footer { max-width: 100rem; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between; }
header p { margin: 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
h1 { font-size: 1.75rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin-top: 2rem; }
form.inline { display: inline; margin: 0; }
.filters, .fields { display: grid; gap: .5rem 1rem; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); align-items: end; margin-bottom: 1rem; }
.fields { align-items: start; margin-bottom: .5rem; } .fields .help { display: block; }
.filters p, .fields p, .fields .field { margin: 0; }
.filters label, .field label { display: block; font-size: .9rem; }
.field { margin: 0 0 .9rem; max-width: 40rem; }
.field.check { display: grid; grid-template-columns: auto 1fr; gap: 0 .5rem; align-items: baseline; }
.field.check .help { grid-column: 2; }
.help { font-size: .85rem; color: var(--muted); margin: .15rem 0 0; }
fieldset { max-width: 42rem; border: 1px solid var(--border); border-radius: .4rem; margin: 0 0 1rem; padding: .5rem .9rem; } legend { padding: 0 .3rem; }
input, select, textarea { font: inherit; padding: .3rem .4rem; border: 1px solid var(--border); border-radius: .3rem; background: var(--bg); color: var(--fg); width: 100%; }
input[type="checkbox"] { width: auto; }
textarea { font-family: ui-monospace, monospace; font-size: .9rem; }
input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.notice, .error, .warning { padding: .6rem .8rem; border-radius: .4rem; border: 1px solid var(--border); background: var(--card); overflow-wrap: anywhere; }
.error { border-color: #b3261e; border-left-width: 6px; }
.warning { border-left: 6px solid #b26a00; }
.notice { border-left: 6px solid var(--accent); }
.actions { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.card { margin-bottom: 1rem; } .card form { margin-top: .75rem; }
table.compact { width: auto; min-width: min(30rem, 100%); }
pre.command { white-space: pre-wrap; overflow-x: auto; } pre.command code { overflow-wrap: normal; display: block; padding: .5rem; }
button { white-space: nowrap; }
button.danger { border-color: #b3261e; color: #b3261e; font-weight: 600; }
button.primary { border-color: var(--accent); font-weight: 600; }
button.copy { font-size: .8rem; padding: .05rem .45rem; margin-left: .3rem; vertical-align: baseline; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { font-size: .9rem; } th, td { padding: .35rem .5rem; }
td { overflow-wrap: anywhere; }
.id, .nowrap, time, td > a:only-child, td > code:only-child { white-space: nowrap; }
a.clip { display: inline-block; max-width: 24rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
.recovered { font-weight: 600; }
code.id { overflow-wrap: normal; }
.secret code { display: block; font-size: 1.05rem; padding: .5rem; margin-bottom: .3rem; word-break: break-all; } .secret button.copy { margin-left: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 48rem) {
  header, main, footer { padding-left: .75rem; padding-right: .75rem; }
  h1 { font-size: 1.4rem; }
  table:not(.stack) { display: block; overflow-x: auto; }
  table:not(.stack) td { overflow-wrap: normal; min-width: 8rem; }
  table.stack td:empty { display: none; }
  table.stack, table.stack tbody, table.stack tr, table.stack td, table.stack tbody th { display: block; width: auto; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { border-bottom: 1px solid var(--border); padding: .5rem 0; }
  table.stack td, table.stack tbody th { border: 0; padding: .1rem 0; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  table.stack caption { display: block; text-align: left; }
  a.clip { max-width: 100%; }
  table.stack td .actions { display: inline-flex; vertical-align: middle; }
  dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .4rem; }
}
`;

export const csrfField = (session: ConsoleSession): SafeHtml => html`<input type="hidden" name="_csrf" value="${session.csrf}">`;

export function messageOf(message: ConsoleMessage | null | undefined): SafeHtml {
  if (!message) return html``;
  return message.kind === 'error'
    ? html`<p class="error" role="alert">${message.text}</p>`
    : html`<p class="notice" role="status">${message.text}</p>`;
}

/** A console page: navigation, sign-out, the page's message, then its content. */
export function consolePage(
  options: { title: string; section: ConsoleSection | null; session: ConsoleSession; message?: ConsoleMessage | null | undefined },
  content: SafeHtml,
): string {
  const links = SECTIONS.map(
    ([key, label, href]) => html`<li><a href="${href}"${key === options.section ? html` aria-current="page"` : html``}>${label}</a></li>`,
  );
  return page(
    `${options.title} · Gateway console`,
    html`<header><p><strong>Gateway console</strong></p>
<nav aria-label="Console"><ul>${links}</ul></nav>
<form class="inline" method="post" action="/console/sign-out">${csrfField(options.session)}<button type="submit">Sign out</button></form></header>
<main id="main"><h1>${options.title}</h1>${messageOf(options.message)}${content}</main>
<p class="visually-hidden" aria-live="polite" id="copy-status"></p><script src="${CONSOLE_COPY_SCRIPT_PATH}" defer></script>`,
    CONSOLE_STYLE,
  );
}

/** GET /console/sign-in (and the answer to a wrong token). */
export function renderSignIn(error: string | null): string {
  return page(
    'Sign in · Gateway console',
    html`<header><p><strong>Gateway console</strong></p></header>
<main id="main"><h1>Sign in</h1>${messageOf(error ? { kind: 'error', text: error } : null)}
<form method="post" action="/console/sign-in">
  <p class="field"><label for="token">Admin token (GATEWAY_ADMIN_TOKEN)</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required spellcheck="false"></p>
  <p><button type="submit">Sign in</button></p>
</form>
<p class="muted">A session lasts 8 hours on every process of this gateway, and a restart keeps it; signing out ends it, and so does a new admin token. In development the token is the one the gateway printed at start, also in admin-token in its data directory.</p></main>`,
    CONSOLE_STYLE,
  );
}

export const time = (value: Date | string | null | undefined): string =>
  value == null ? '' : (typeof value === 'string' ? value : value.toISOString()).replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** The last hour of a connection's requests: how many, and the share refused (4xx) and failed (5xx). */
export function activityText(activity: ConnectionActivityView | null): string {
  const hour = activity?.lastHour;
  if (!hour || hour.requests === 0) return 'no requests';
  const share = (n: number) => `${n} (${Math.round((n / hour.requests) * 1000) / 10} %)`;
  return `${hour.requests} ${hour.requests === 1 ? 'request' : 'requests'}: ${share(hour.refused)} refused, ${share(hour.failed)} failed`;
}

export function skewText(skew: ConnectionSkew | null): string {
  if (!skew) return 'none seen lately';
  return `${skew.latestSeconds} s (smoothed ${skew.smoothedSeconds} s, ${time(skew.lastSeenAt)})${skew.flagged ? ": flagged, ask the merchant to fix the till's clock" : ''}`;
}
