import { z } from 'zod';
import { judgeAddress, type AddressKind } from './address-kind.js';

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

/**
 * Cloud metadata endpoints: never a vendor API, always a credential-theft target. Names as URLs
 * write them, addresses as judgeAddress writes them (an IPv4 address carried in IPv6 dotted).
 */
const METADATA_HOSTS = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean…
  '169.254.170.2', // AWS ECS task credentials
  'fd00:ec2::254', // AWS over IPv6
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (legacy)
  '168.63.129.16', // Azure WireServer
  'metadata.google.internal',
  'metadata',
  'metadata.azure.internal',
]);

/**
 * A URL's host as the policy compares it: lower case, brackets and trailing dots dropped
 * (`localhost.` is `localhost`: resolvers treat the final dot as the root), an IP address in the
 * form judgeAddress writes it (`[::ffff:7f00:1]` is 127.0.0.1). Numeric IPv4 forms (0x7f.1,
 * 2130706433) are already dotted by the URL parser.
 */
function judgedHost(hostname: string): { host: string; kind: AddressKind | 'name' } {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const judged = judgeAddress(bare);
  if (judged) return { host: judged.address, kind: judged.kind };
  let end = bare.length;
  while (end > 0 && bare.charCodeAt(end - 1) === 0x2e) end -= 1;
  const host = bare.slice(0, end);
  return { host, kind: host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : 'name' };
}

/** A host written for comparison with the policy's allow-list (GATEWAY_OUTBOUND_ALLOW may spell it any way). */
const allowListed = (host: string, policy: OutboundPolicy) => policy.allowHosts.some((allowed) => judgedHost(allowed).host === host);

const an = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

/**
 * Why `host` may never be called, in any environment and whatever is allow-listed: a cloud
 * metadata endpoint or a link-local address (what a settings save refuses). Null otherwise.
 */
function refusedEverywhere(host: string, kind: AddressKind | 'name'): string | null {
  if (METADATA_HOSTS.has(host)) return 'a cloud metadata address';
  if (kind === 'link-local') return 'a link-local address';
  return null;
}

/**
 * Why a vendor API URL may not be called under `policy`, or null when it may. Only https: and
 * http:; never link-local or cloud metadata addresses; loopback only when the policy allows it;
 * private, unspecified and reserved addresses only when allow-listed; http: only to loopback or
 * allow-listed hosts. A literal address is judged in whatever form it is written; a host name
 * here by its name only: the HTTP client judges the addresses it resolves to when it connects
 * (outboundAddressProblem).
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
  const { host, kind } = judgedHost(parsed.hostname);
  const everywhere = refusedEverywhere(host, kind);
  if (everywhere) return `points at ${everywhere} (${host})`;
  if (allowListed(host, policy)) return null;
  if (kind === 'loopback') return policy.allowLoopback ? null : `points at a loopback address (${host}), refused in production`;
  if (kind === 'private' || kind === 'unspecified' || kind === 'reserved')
    return `points at ${an(kind)} address (${host}); allow it explicitly with GATEWAY_OUTBOUND_ALLOW`;
  if (parsed.protocol !== 'https:')
    return `uses http: to ${host} (only https:, except to loopback outside production or to a host in GATEWAY_OUTBOUND_ALLOW)`;
  return null;
}

/**
 * Why the HTTP client may not connect to `address`, one of the addresses `hostname` (a URL's host
 * name, already allowed by outboundUrlProblem) resolved to, or null when it may. The same rule on
 * what the name resolves to now: a name resolving inward, or re-resolving inward since the last
 * call (DNS rebinding), is refused like the address written out.
 */
export function outboundAddressProblem(hostname: string, address: string, policy: OutboundPolicy): string | null {
  const judged = judgeAddress(address);
  // The resolver answers addresses only; anything else is not something to connect to.
  if (!judged) return 'an address that is not an IP address';
  const everywhere = refusedEverywhere(judged.address, judged.kind);
  if (everywhere) return everywhere;
  if (allowListed(judgedHost(hostname).host, policy)) return null;
  if (judged.kind === 'loopback') return policy.allowLoopback ? null : 'a loopback address, refused in production';
  if (judged.kind === 'public') return null;
  return `${an(judged.kind)} address; allow the host with GATEWAY_OUTBOUND_ALLOW`;
}

/**
 * Why a URL in provider settings is refused when saved, in every environment, or null: one whose
 * host is a cloud metadata endpoint or a link-local address in any spelling. Where else it may
 * point depends on the environment (loopback, private ranges), so that is judged when called.
 */
export function savedUrlProblem(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const { host, kind } = judgedHost(new URL(url).hostname);
  const everywhere = refusedEverywhere(host, kind);
  return everywhere && `must not point at ${everywhere} (${host})`;
}

/** Longer than any API base URL; bounds what adapters do with the value (trailing slashes trimmed per call). */
export const MAX_VENDOR_API_URL = 2048;

/**
 * A vendor API base URL in provider settings: http(s) only, no credentials, no query or fragment,
 * never a cloud metadata or link-local address (savedUrlProblem), at most MAX_VENDOR_API_URL
 * characters with no empty path segment.
 */
export const VendorApiBaseUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(MAX_VENDOR_API_URL, { message: `must be at most ${MAX_VENDOR_API_URL} characters` })
  .superRefine((value, ctx) => {
    // Runs after a failed URL check too (zod keeps checking): an unparsable value is that check's to report.
    if (!URL.canParse(value)) return;
    const parsed = new URL(value);
    if (parsed.username || parsed.password || parsed.search || parsed.hash)
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials, a query or a fragment' });
    if (parsed.pathname.includes('//')) ctx.addIssue({ code: 'custom', message: 'must not contain an empty path segment (//)' });
    const problem = savedUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
