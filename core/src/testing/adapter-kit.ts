import type { z } from 'zod';
import { authenticate, secretsFromSettings } from '../adapter/auth/authenticate.js';
import type { AuthCheck } from '../adapter/auth/scheme.js';
import { hmacHeaderValue } from '../adapter/auth/verify-hmac.js';
import { decodeNative } from '../adapter/decode-native.js';
import {
  isUnreadableUnit,
  type AdapterContext,
  type AnyAdapter,
  type ReconcileWindow,
  type WebhookUnit,
} from '../adapter/define-adapter.js';
import { createHttpClient, type HttpClient } from '../adapter/http-client.js';
import type { NativeRequest } from '../adapter/native-request.js';
import type { RequestAuth } from '../adapter/read-native-request.js';
import { CatalogItem } from '../schemas/catalog.js';
import { FeaturedEnvelope } from '../schemas/featured-envelope.js';
import { kitPost, type KitResponse } from './kit-door.js';

export interface KitOptions {
  settings: unknown;
  credentials?: unknown;
  /** The per-connection secret, for adapters whose scheme reads it from the connection. */
  connectionSecret?: string;
  url?: string;
  now?: () => Date;
  http?: HttpClient;
}

const quietLogger = { info() {}, warn() {} };

/** Waits of the kit's HTTP client: decided as the real client decides them, but at most 20 ms of real time. */
const fastWait = (ms: number) => Math.min(ms, 20);

/**
 * The shared adapter test kit: every adapter's tests say, in a few lines, "this signed native
 * fixture in → these canonical envelopes out", "this bad signature → 401", "these catalog pages →
 * these items". It signs with the real signer, runs core's readNativeRequest (the gateway door's
 * own order of checks) and validates output with the strict canonical schemas, as the gateway does.
 */
export function adapterKit(adapter: AnyAdapter, options: KitOptions) {
  const settings = adapter.settings.parse(options.settings) as Record<string, unknown>;
  const credentials = adapter.credentials.parse(options.credentials ?? {});
  const now = options.now ?? (() => new Date());
  const url = options.url ?? `https://gateway.example.com/webhooks/${adapter.slug}`;
  const scheme = adapter.defaultAuth;
  const fromSettings = secretsFromSettings(scheme, settings);
  const secrets = fromSettings === 'per-connection' ? [options.connectionSecret ?? ''] : fromSettings === 'none' ? [] : fromSettings;
  const auth: RequestAuth = { scheme, secrets: fromSettings };
  const http = options.http ?? createHttpClient({ timeoutMs: 2000, baseDelayMs: 5, realWaitMs: fastWait });

  const context = (storeId: string): AdapterContext<z.infer<typeof adapter.settings>, z.infer<typeof adapter.credentials>> => ({
    settings,
    credentials,
    storeId,
    http,
    logger: quietLogger,
    now,
  });

  function request(body: Buffer | string, headers: Record<string, string> = {}): NativeRequest {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    return { method: 'POST', url, headers: lower, rawBody: Buffer.from(body), remoteAddress: '127.0.0.1' };
  }

  /** A native request signed the way the vendor signs it (HMAC or static token). */
  function signed(body: Buffer | string, headers: Record<string, string> = {}): NativeRequest {
    const unsigned = request(body, headers);
    if (scheme.kind === 'mtls') return unsigned;
    const secret = secrets[0] ?? '';
    if (scheme.kind === 'static-header') unsigned.headers[scheme.header] = scheme.prefix + secret;
    else {
      if (scheme.signed === 'timestamp+body' && scheme.timestampHeader && !unsigned.headers[scheme.timestampHeader]) {
        unsigned.headers[scheme.timestampHeader] = String(Math.floor(now().getTime() / 1000));
      }
      unsigned.headers[scheme.header] = hmacHeaderValue(scheme, secret, unsigned);
    }
    return unsigned;
  }

  /** Decode, split and map a request (no authentication: see `post`); every envelope validated by the strict canonical schema. */
  async function envelopes(req: NativeRequest) {
    const native = decodeNative(adapter, req.rawBody);
    const handshake = adapter.handshake?.detect(native, req) ?? null;
    if (handshake) return { handshake, stores: [] as string[], envelopes: [] as FeaturedEnvelope[], notes: [] as string[] };
    const all = adapter.units(native, req);
    const units = all.filter((u) => !isUnreadableUnit(u)) as Array<WebhookUnit<unknown>>;
    const out: FeaturedEnvelope[] = [];
    const notes: string[] = [];
    for (const { storeId, unit } of units) {
      const result = await adapter.map(unit, context(storeId), req);
      out.push(...result.envelopes.map((e) => FeaturedEnvelope.parse(e)));
      if (result.note) notes.push(result.note);
    }
    const unreadable = all.filter(isUnreadableUnit);
    return { handshake, stores: units.map((u) => u.storeId), envelopes: out, notes, ...(unreadable.length > 0 ? { unreadable } : {}) };
  }

  /** Pull every catalog page (retry waits last at most 20 ms so tests stay fast; Retry-After itself is tested in core) from the start; items validated by the strict CatalogItem schema. */
  async function catalog(storeId: string, maxPages = 100) {
    if (!adapter.catalog) throw new Error(`${adapter.slug} declares no catalog pull`);
    const items: CatalogItem[] = [];
    const checkpoints: Array<string | null> = [];
    let checkpoint: string | null = null;
    for (let page = 0; page < maxPages; page += 1) {
      const result = await adapter.catalog.pull(context(storeId), checkpoint);
      items.push(...result.items.map((i) => CatalogItem.parse(i)));
      checkpoints.push(result.checkpoint);
      checkpoint = result.checkpoint;
      if (checkpoint === null) break;
    }
    return { items, checkpoints };
  }

  /** Run a reconciliation pull over every page of the window; envelopes validated by the strict canonical schema. */
  async function reconcile(storeId: string, window: ReconcileWindow, maxPages = 100) {
    if (!adapter.reconcile) throw new Error(`${adapter.slug} declares no reconciliation pull`);
    const envelopes: FeaturedEnvelope[] = [];
    const failures: Array<{ id: string; reason: string }> = [];
    const cursors: Array<string | null> = [];
    let examined = 0;
    let cursor: string | null = null;
    for (let page = 0; page < maxPages; page += 1) {
      const result = await adapter.reconcile.pull(context(storeId), window, cursor);
      envelopes.push(...result.envelopes.map((e) => FeaturedEnvelope.parse(e)));
      failures.push(...(result.failures ?? []));
      examined += result.examined ?? result.envelopes.length + (result.failures?.length ?? 0);
      cursors.push(result.cursor);
      cursor = result.cursor;
      if (cursor === null) break;
    }
    return { envelopes, failures, examined, cursors };
  }

  return {
    settings,
    context,
    signed,
    unsigned: request,
    /** The scheme's verdict on a request (its reason and detail when refused). */
    authenticate(req: NativeRequest): AuthCheck {
      return authenticate(scheme, secrets, req, now());
    },
    envelopes,
    /**
     * What the featured door answers, as HTTP: `(await kit.post(req)).statusCode` is 401 for a bad
     * signature, 400 for a payload the adapter cannot read, 200 (or the adapter's declared answer)
     * with `body` otherwise. Envelopes count as processed by an engine that earns nothing.
     */
    post(req: NativeRequest): Promise<KitResponse> {
      return kitPost(
        {
          adapter,
          auth,
          connectionSecret: options.connectionSecret,
          now,
          map: (unit, storeId, r) => Promise.resolve(adapter.map(unit, context(storeId), r)),
        },
        req,
      );
    },
    catalog,
    reconcile,
  };
}
