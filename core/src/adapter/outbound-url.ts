import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Where the gateway may send a vendor API call (fetch-back, catalog and reconciliation pulls).
 * Production refuses loopback; an operator may allow named hosts explicitly
 * (GATEWAY_OUTBOUND_ALLOW) — an on-premises ERP on a private address, a sandbox.
 */
export interface OutboundPolicy {
  /** Loopback hosts (127.0.0.0/8, ::1, localhost), over http: too: tests and local sandboxes. Off in production. */
  allowLoopback: boolean;
  /** Host names or addresses (lower case) allowed whatever their address, over http: or https:. */
  allowHosts: readonly string[];
}

/** Outside production: loopback allowed (recorded vendor servers in tests, local sandboxes). */
export const DEVELOPMENT_OUTBOUND_POLICY: OutboundPolicy = Object.freeze({ allowLoopback: true, allowHosts: [] });

/** Cloud metadata endpoints: never a vendor API, always a credential-theft target. */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  'metadata.google.internal',
  'metadata',
  'fd00:ec2::254',
  '100.100.100.200',
  'metadata.azure.internal',
]);

function ipv4Octets(host: string): number[] {
  return host.split('.').map(Number);
}

/** What kind of address a literal IP is (only the kinds the policy cares about). */
function addressKind(host: string): 'loopback' | 'link-local' | 'private' | 'unspecified' | 'public' {
  if (isIP(host) === 4) {
    const [a, b] = ipv4Octets(host) as [number, number];
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return 'link-local';
    if (a === 0) return 'unspecified';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
    return 'public';
  }
  const v6 = host.toLowerCase();
  if (v6 === '::1') return 'loopback';
  if (v6 === '::') return 'unspecified';
  if (/^fe[89ab]/.test(v6)) return 'link-local';
  if (/^f[cd]/.test(v6)) return 'private';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return addressKind(mapped[1]!);
  return 'public';
}

/**
 * Why a vendor API URL may not be called under `policy`, or null when it may. Only https: and
 * http:; never link-local or cloud metadata addresses; loopback only when the policy allows it;
 * private and unspecified addresses only when allow-listed; http: only to loopback or allow-listed
 * hosts. Host names are judged as written (DNS answers are not resolved here).
 */
export function outboundUrlProblem(url: string, policy: OutboundPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `uses ${parsed.protocol} (vendor APIs are called over https:)`;
  if (parsed.username || parsed.password) return "carries credentials in the URL (send them as the adapter's headers)";
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) return `points at a cloud metadata address (${host})`;
  if (policy.allowHosts.includes(host)) return null;
  const kind = host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : isIP(host) ? addressKind(host) : 'public';
  if (kind === 'link-local') return `points at a link-local address (${host})`;
  if (kind === 'loopback') return policy.allowLoopback ? null : `points at a loopback address (${host}), refused in production`;
  if (kind === 'private' || kind === 'unspecified')
    return `points at a ${kind} address (${host}); allow it explicitly with GATEWAY_OUTBOUND_ALLOW`;
  if (parsed.protocol !== 'https:')
    return `uses http: to ${host} (only https:, except to loopback outside production or to a host in GATEWAY_OUTBOUND_ALLOW)`;
  return null;
}

/**
 * A vendor API base URL in provider settings: http(s) only, no credentials, no query or fragment.
 * Where it may point (loopback, private ranges) is decided per environment when it is called.
 */
export const VendorApiBaseUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).refine(
  (value) => {
    // Runs after a failed URL check too (zod keeps checking): an unparsable value is that check's to report.
    if (!URL.canParse(value)) return true;
    const parsed = new URL(value);
    return !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
  },
  { message: 'must not carry credentials, a query or a fragment' },
);
