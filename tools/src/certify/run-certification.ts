import { randomBytes } from 'node:crypto';
import { sendSigned } from '../send-signed.js';
import type { SampleSaleOptions } from '../sample-sale.js';
import { CERTIFICATION_CHECKS, type CertificationCheck, type CertificationClient } from './certification-checks.js';

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
        url: `${base}/webhooks/generic`, vendor: options.vendor, store: options.store, secret: extra.secret ?? options.secret,
        body: extra.raw ?? JSON.stringify(body), nowSeconds: extra.nowSeconds, requestId: `certify-${runId}-${(sent += 1)}`,
      }),
    get: async (path) => {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, body: await response.text() };
    },
  };
  const state = new Map<string, unknown>();
  const results: CheckResult[] = [];
  for (const check of options.checks ?? CERTIFICATION_CHECKS) {
    const outcome = await check.run(client, state).catch((error: unknown) => ({ ok: false, detail: `failed to run: ${(error as Error).message}` }));
    results.push({ name: check.name, expect: check.expect, ...outcome });
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
