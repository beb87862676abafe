import type { ReconcileRun } from '../reconcile/index.js';
import type { CatalogRun } from '../stores/index.js';
import { html } from '../directory/html.js';
import { copyableId } from './console-copy-script.js';
import { consolePage, time, type ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';

interface Common {
  session: ConsoleSession;
  message?: ConsoleMessage | null | undefined;
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
