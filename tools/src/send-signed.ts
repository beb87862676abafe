import { fetchFailureReason, signedHeaders } from '@loyalty-gateway/core';

export interface SendSignedOptions {
  url: string;
  vendor: string;
  store: string;
  secret: string;
  body: Buffer | string;
  requestId?: string | undefined;
  /** Unix seconds to sign with instead of now (the certification's stale-timestamp check). */
  nowSeconds?: number | undefined;
}

export interface SendSignedResult {
  status: number;
  requestId: string | null;
  body: unknown;
}

/**
 * `fetch` that says why it got no answer in the system's words and names the URL: `cannot reach
 * http://127.0.0.1:9/webhooks/generic: connect ECONNREFUSED 127.0.0.1:9`, where undici's own
 * error says only "fetch failed" (its reason is in `cause`).
 */
export async function fetchOrExplain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${fetchFailureReason(error)}`, { cause: error });
  }
}

/** POST the exact bytes given, signed with the v1 scheme, and read the JSON answer. */
export async function sendSigned(options: SendSignedOptions): Promise<SendSignedResult> {
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const response = await fetchOrExplain(options.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
      ...signedHeaders({ vendor: options.vendor, store: options.store, secret: options.secret, body, nowSeconds: options.nowSeconds }),
    },
    body,
  });
  return readAnswer(response);
}

/** The gateway's (or a vendor door's) answer: status, request id, the body as JSON when it is JSON, else its text. */
export async function readAnswer(response: Response): Promise<SendSignedResult> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a non-JSON answer (health, proxies, a vendor-style 'OK') is shown as text
  }
  return { status: response.status, requestId: response.headers.get('x-request-id'), body: parsed };
}
