import { randomBytes } from 'node:crypto';
import { fetchOrExplain, sendSigned } from '../send-signed.js';
import type { SampleSaleOptions } from '../sample-sale.js';
import { CERTIFICATION_CHECKS, type CertificationCheck, type CertificationClient, CONNECTION_TEST } from './certification-checks.js';

export interface CertificationOptions {
  /** The gateway's base URL (UAT's, for a vendor certifying its integration). */
  url: string;
  vendor: string;
  store: string;
  secret: string;
  customer?: SampleSaleOptions['customer'];
  checks?: readonly CertificationCheck[];
}

export interface CheckResult {
  name: string;
  expect: string;
  ok: boolean;
  detail: string;
}

/** Runs every check in order against a live gateway; a check that throws (network) fails with the reason. */
export async function runCertification(options: CertificationOptions): Promise<CheckResult[]> {
  const base = options.url.replace(/\/$/, '');
  // One id per run, numbered per request: what to grep the gateway's logs for.
  const runId = randomBytes(4).toString('hex');
  let sent = 0;
  const client: CertificationClient = {
    storeId: options.store,
    customer: options.customer,
    send: (body, extra = {}) =>
      sendSigned({
        url: `${base}${extra.path ?? '/webhooks/generic'}`,
        vendor: options.vendor,
        store: options.store,
        secret: extra.secret ?? options.secret,
        body: extra.raw ?? JSON.stringify(body),
        nowSeconds: extra.nowSeconds,
        requestId: `certify-${runId}-${(sent += 1)}`,
      }),
    get: async (path) => {
      const response = await fetchOrExplain(`${base}${path}`);
      return { status: response.status, body: await response.text() };
    },
  };
  const state = new Map<string, unknown>();
  const results: CheckResult[] = [];
  for (const check of options.checks ?? CERTIFICATION_CHECKS) {
    const outcome = await check
      .run(client, state)
      .catch((error: unknown) => ({ ok: false, detail: `failed to run: ${(error as Error).message}` }));
    results.push({ name: check.name, expect: check.expect, ...outcome });
    // The connection test refused for its credentials: every signed check after it would fail the
    // same way, so the run stops here with the one thing to fix.
    if (
      check.name === CONNECTION_TEST &&
      !outcome.ok &&
      /^HTTP 401 (bad_signature|unknown_connection|stale_timestamp)/.test(outcome.detail)
    ) {
      results.push({
        name: 'credentials',
        ok: false,
        expect: 'the connection test accepted',
        detail: /stale_timestamp/.test(outcome.detail)
          ? "timestamp rejected: this machine's clock is more than 300 s from the gateway's; fix the clock, then run certify again (no other check was run)"
          : 'secret rejected: check the secret and the store id (the vendor slug too), then run certify again (no other check was run)',
      });
      break;
    }
  }
  return results;
}

/** One line a check, then the verdict. */
export function formatCertification(results: readonly CheckResult[]): string {
  const lines = results.map((r) => `${r.ok ? 'PASS' : 'FAIL'}  ${r.name}: ${r.detail}${r.ok ? '' : `\n      expected ${r.expect}`}`);
  const failed = results.filter((r) => !r.ok).length;
  lines.push('', failed === 0 ? `All ${results.length} checks passed.` : `${failed} of ${results.length} checks failed.`);
  return lines.join('\n');
}
