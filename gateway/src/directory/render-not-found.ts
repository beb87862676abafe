import { html, page } from './html.js';

/** The directory's 404: an unknown vendor, or one that is not featured (it integrates generically). */
export function renderDirectoryNotFound(slug: string): string {
  return page(
    'Integration not found',
    html`<header><p><a href="/directory">Loyalty gateway &middot; Integrations</a></p></header>
<main id="main"><h1>Integration not found</h1>
<p>There is no featured integration called <code>${slug}</code>.</p>
<p>Any product can still connect through the generic webhook. <a href="/directory">See the featured integrations</a>.</p></main>`,
  );
}
