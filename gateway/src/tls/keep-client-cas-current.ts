import type { Server } from 'node:https';
import type { AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { VendorChanges } from '../featured/index.js';
import type { GatewayStore } from '../stores/index.js';
import { providerCaBundle } from './provider-ca-bundle.js';
import { secureContextOptions } from './tls-server-factory.js';

export interface ClientCaRefresh {
  /** Re-read the providers' CAs and swap the listener's secure context if they changed. */
  refresh(): Promise<void>;
  /** The CA PEMs advertised now. */
  current(): readonly string[];
  /** Stop following changes (the listener is closing). */
  stop(): void;
}

const sameBundle = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((pem, i) => pem === b[i]);

/**
 * Keeps the HTTPS listener's acceptable client CA list equal to the mTLS `direct` providers' CAs
 * as configured now. A client that picks its certificate by the CA names the server advertises
 * (Java's default key manager, browsers, SChannel) sends none for a CA missing from the list, so
 * a provider configured or re-keyed after start-up must join it without a restart:
 * `server.setSecureContext` with the same certificate and key and the new bundle. Handshakes from
 * then on get the new list; connections already open keep theirs. Subscribed to `changes`.
 */
export function keepClientCasCurrent(options: {
  server: Server;
  material: { cert: string; key: string; ca: string[] };
  store: Pick<GatewayStore, 'listVendors' | 'getVendor'>;
  adapters: readonly AnyAdapter[];
  changes?: VendorChanges | undefined;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}): ClientCaRefresh {
  let ca = [...options.material.ca];
  let queue: Promise<void> = Promise.resolve();
  const apply = async () => {
    const next = await providerCaBundle(options.store, options.adapters);
    if (sameBundle(next, ca)) return;
    options.server.setSecureContext(secureContextOptions({ cert: options.material.cert, key: options.material.key, ca: next }));
    options.log.info(
      { providerCas: next.length, previously: ca.length },
      'mTLS listener: acceptable client CAs updated (provider settings changed)',
    );
    ca = next;
  };
  // One refresh at a time: an older read must never overwrite a newer one.
  const refresh = () => (queue = queue.then(apply, apply));
  const unsubscribe = options.changes?.subscribe(refresh);
  if (options.changes) {
    // The bundle was read before the listener started listening: a change made meanwhile is caught here.
    refresh().catch((error: unknown) =>
      options.log.error({ err: error }, 'mTLS listener: reading the provider CAs failed; retried on the next settings change'),
    );
  }
  return { refresh, current: () => ca, stop: () => unsubscribe?.() };
}
