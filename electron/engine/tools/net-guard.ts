/**
 * Which addresses fetch_url may connect to: public unicast only. Loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, multicast, broadcast, unspecified, reserved, and IPv6 forms
 * that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are refused. The address classes are ipaddr.js's
 * (a small, well-kept library that names every IANA special-purpose range).
 *
 * The check runs inside the connection's own DNS lookup, so the address checked is the address connected to:
 * a name that resolves to a public address once and to 127.0.0.1 the next time (DNS rebinding) cannot slip
 * through between a check and the connection.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How a refused range is named to the model. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback (this computer)',
  private: 'private network',
  uniqueLocal: 'private network',
  linkLocal: 'link-local (e.g. cloud metadata)',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
  ipv4Mapped: 'IPv4-mapped',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
  teredo: 'Teredo',
};

/** null when `address` is a public unicast address, else the name of its class. */
export function addressProblem(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'unparsable';
  const parsed = ipaddr.parse(bare);
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries, and refused whatever that is.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = (parsed as ipaddr.IPv6).toIPv4Address();
    const range = inner.range();
    return `IPv4-mapped ${RANGE_NAMES[range] ?? range}`;
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  return RANGE_NAMES[range] ?? `reserved (${range})`;
}

/** Thrown (through the socket) when a host resolves to an address fetch_url may not reach. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'EBLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly problem: string,
  ) {
    super(
      host === address ? `${host} is a ${problem} address` : `${host} resolves to ${address}, a ${problem} address`,
    );
  }
}

/**
 * A `lookup` for http(s).request: resolves every address of the name and refuses the connection if any of
 * them is not public (a name with one public and one private address is refused too).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) {
        callback(new BlockedAddressError(hostname, address, problem) as NodeJS.ErrnoException, '', 0);
        return;
      }
    }
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};

/** For a URL whose host is an IP literal (no lookup happens): the problem with it, or null. */
export function literalProblem(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? addressProblem(host) : null;
}
