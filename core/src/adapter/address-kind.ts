import { isIPv4, isIPv6 } from 'node:net';

/** What the outbound policy needs to know about an IP address. */
export type AddressKind = 'loopback' | 'link-local' | 'private' | 'unspecified' | 'reserved' | 'public';

/** An address judged: its kind, and the address written as the policy names it (an embedded IPv4 address dotted). */
export interface JudgedAddress {
  kind: AddressKind;
  address: string;
}

function ipv4Kind([a, b, c]: readonly number[]): AddressKind {
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127)) return 'private';
  // IETF protocol assignments (192.0.0.0/24), benchmarking (198.18.0.0/15), multicast and the reserved
  // 240.0.0.0/4 with the broadcast address: never a vendor's API.
  if ((a === 192 && b === 0 && c === 0) || (a === 198 && (b === 18 || b === 19)) || a! >= 224) return 'reserved';
  return 'public';
}

/** The 16 bytes of an IPv6 address already known valid (isIPv6, zone dropped), a dotted IPv4 tail included. */
function ipv6Bytes(text: string): number[] {
  let source = text;
  const lastColon = source.lastIndexOf(':');
  if (source.includes('.', lastColon)) {
    const [a, b, c, d] = source
      .slice(lastColon + 1)
      .split('.')
      .map(Number) as [number, number, number, number];
    source = `${source.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, rest] = source.split('::') as [string, string | undefined];
  const left = words(head);
  const right = rest === undefined ? [] : words(rest);
  const all = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((word) => [word >> 8, word & 0xff]);
}

const dotted = (bytes: readonly number[]) => bytes.join('.');
const allZero = (bytes: readonly number[]) => bytes.every((b) => b === 0);

/**
 * The IPv4 address an IPv6 address carries, where it is one that reaches that IPv4 address (or is
 * read as it by a stack or a translator): IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96, the deprecated IPv4-compatible ::/96, NAT64's well-known 64:ff9b::/96, 6to4's
 * 2002::/16 and Teredo's client (2001::/32, stored inverted).
 */
function embeddedIpv4(b: readonly number[]): number[] | null {
  const zeros = (from: number, to: number) => allZero(b.slice(from, to));
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return b.slice(12);
  if (zeros(0, 12) && !zeros(12, 15)) return b.slice(12); // not :: nor ::1 (their own kinds)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12);
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return b.slice(12).map((x) => x ^ 0xff);
  return null;
}

function ipv6Kind(b: readonly number[]): AddressKind {
  if (allZero(b)) return 'unspecified';
  if (allZero(b.slice(0, 15)) && b[15] === 1) return 'loopback';
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local';
  // Unique local fc00::/7, the deprecated site-local fec0::/10, NAT64's local-use 64:ff9b:1::/48.
  if ((b[0]! & 0xfe) === 0xfc || (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0)) return 'private';
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0x00 && b[5] === 0x01) return 'private';
  if (b[0] === 0xff) return 'reserved'; // multicast
  return 'public';
}

/**
 * What a literal IP address is (dotted IPv4 or any IPv6 text, brackets dropped), judging an IPv6
 * address that carries an IPv4 address as that IPv4 address: `::ffff:7f00:1`, `::7f00:1` and
 * `64:ff9b::7f00:1` are all loopback 127.0.0.1. Null for anything that is not an IP address.
 */
export function judgeAddress(text: string): JudgedAddress | null {
  if (isIPv4(text)) return { kind: ipv4Kind(text.split('.').map(Number)), address: text };
  const address = text.split('%', 1)[0]!; // a zone (fe80::1%eth0) does not change what the address is
  if (!isIPv6(address)) return null;
  const bytes = ipv6Bytes(address);
  const v4 = embeddedIpv4(bytes);
  if (v4) return { kind: ipv4Kind(v4), address: dotted(v4) };
  // Written as URLs write it (lower case, zeros compressed), so fd00:ec2:0::254 is fd00:ec2::254.
  return { kind: ipv6Kind(bytes), address: new URL(`http://[${address}]/`).hostname.slice(1, -1) };
}
