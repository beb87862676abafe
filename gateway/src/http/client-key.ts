import { isIPv4, isIPv6 } from 'node:net';

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail as the last two), or null. */
function groupsOf(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    if (!isIPv4(dotted)) return null;
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/** Groups written the usual short way: lower-case hex, the longest run of two or more zero groups as `::`. */
function shortForm(groups: number[]): string {
  let best = { at: -1, length: 1 };
  for (let at = 0; at < groups.length; at += 1) {
    let length = 0;
    while (groups[at + length] === 0) length += 1;
    if (length > best.length) best = { at, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/**
 * The client a per-address limit counts, from `request.ip` (the socket's address, or
 * X-Forwarded-For's when the socket is a trusted proxy, GATEWAY_TRUSTED_PROXIES): an IPv4 client
 * is its address, written one way (an IPv4-mapped IPv6 address of a dual-stack socket is its
 * IPv4 address); an IPv6 client is its /64 (`2001:db8:1:2::/64`). A host or a subscriber is given
 * a whole /64 and picks any address in it, so a limit per full IPv6 address limits no one.
 * Anything else is returned as given.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = groupsOf(bare.toLowerCase());
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${shortForm([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
