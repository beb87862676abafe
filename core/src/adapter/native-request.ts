/** What an adapter sees of a vendor's HTTP request: nothing parsed yet but the headers. */
export interface NativeRequest {
  method: string;
  /** The public URL the vendor posted to (as configured; proxies rewrite the local one). */
  url: string;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** The exact bytes received. */
  rawBody: Buffer;
  /** The TCP peer (the proxy, when behind one). */
  remoteAddress: string;
  /** The client certificate when the gateway terminated TLS itself and one was presented. */
  peerCertificate?: PeerCertificateInfo | undefined;
}

export interface PeerCertificateInfo {
  /** True when Node's TLS layer verified the chain against the listener's CA list. */
  authorized: boolean;
  /** DER of the leaf certificate. */
  raw: Buffer;
  /** DER of each issuer up the presented chain (leaf's issuer first). */
  chain: Buffer[];
}
