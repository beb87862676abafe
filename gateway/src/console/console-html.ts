import type { ConnectionSkew } from '../http/clock-skew.js';
import type { ConnectionActivityView } from '../http/connection-activity.js';
import { html, page, type SafeHtml } from '../directory/html.js';
import type { ConsoleSession } from './console-session.js';

export type ConsoleSection = 'deliveries' | 'connections' | 'vendors' | 'runs';

/** A line at the top of the page: what an action did, or why it failed (in plain words). */
export interface ConsoleMessage {
  kind: 'notice' | 'error';
  text: string;
}

const SECTIONS: Array<[ConsoleSection, string, string]> = [
  ['deliveries', 'Deliveries', '/console'],
  ['connections', 'Connections', '/console/connections'],
  ['vendors', 'Vendors', '/console/vendors'],
  ['runs', 'Runs', '/console/runs'],
];

const CONSOLE_STYLE = `
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; max-width: 72rem; }
main, footer { max-width: 72rem; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
form.inline { display: inline; margin: 0; }
.filters { display: grid; gap: .5rem 1rem; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); align-items: end; margin-bottom: 1rem; }
.filters label, .field label { display: block; font-size: .9rem; }
input { font: inherit; padding: .3rem .4rem; border: 1px solid var(--border); border-radius: .3rem; background: var(--bg); color: var(--fg); width: 100%; }
input:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.notice, .error { padding: .6rem .8rem; border-radius: .4rem; border: 1px solid var(--border); background: var(--card); }
.error { border-color: #b3261e; border-left-width: 6px; }
.notice { border-left: 6px solid var(--accent); }
.actions { display: flex; flex-wrap: wrap; gap: .4rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
td { overflow-wrap: break-word; }
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
<main id="main"><h1>${options.title}</h1>${messageOf(options.message)}${content}</main>`,
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
<p class="muted">A session lasts 8 hours in this gateway process; signing out or restarting the gateway ends it.</p></main>`,
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
