import type { Socket } from 'node:net';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { PeerCertificateInfo } from '@loyalty-gateway/core';

const isTlsSocket = (socket: Socket): socket is TLSSocket => typeof (socket as Partial<TLSSocket>).getPeerCertificate === 'function';

/**
 * The client certificate of a connection the gateway's own HTTPS listener terminated: the leaf's
 * DER and each issuer up the chain the client presented (leaf's issuer first). Undefined on plain
 * HTTP and when the client presented none (`requestCert` without `rejectUnauthorized`: core's
 * `verifyMtls` decides per provider, not the listener).
 */
export function peerCertificateOf(socket: Socket): PeerCertificateInfo | undefined {
  if (!isTlsSocket(socket)) return undefined;
  const leaf = socket.getPeerCertificate(true) as DetailedPeerCertificate | Record<string, never>;
  if (!leaf || !('raw' in leaf) || !leaf.raw || leaf.raw.length === 0) return undefined;
  const chain: Buffer[] = [];
  const seen = new Set<string>([leaf.fingerprint256]);
  let issuer = leaf.issuerCertificate;
  // Node links a self-signed root to itself; stop at the first certificate seen before.
  while (issuer && issuer.raw && !seen.has(issuer.fingerprint256) && chain.length < 10) {
    chain.push(issuer.raw);
    seen.add(issuer.fingerprint256);
    issuer = issuer.issuerCertificate;
  }
  return { authorized: socket.authorized, raw: leaf.raw, chain };
}
