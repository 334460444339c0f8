import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Address rules for calls to partner-supplied URLs. The classification is ipaddr.js's `range()`
 * (its table follows the IANA IPv4 and IPv6 special-purpose address registries): only what it
 * calls 'unicast' (global unicast) is allowed, everything it names (private, loopback, link-local,
 * CGNAT, multicast, reserved, documentation, benchmarking, 6to4, Teredo, ...) is refused. An
 * explicit list of the ranges this platform must never call is checked on top, so that a change
 * in the library's table cannot open one of them.
 */

type Cidr4 = [ipaddr.IPv4, number];
type Cidr6 = [ipaddr.IPv6, number];

// Every range here is also named by ipaddr.js 2.5's `range()`; listed again on purpose (above).
const REFUSED_V4: Cidr4[] = [
  '0.0.0.0/8', // "this network" (RFC 791), 0.0.0.0 included
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // shared address space, CGNAT (RFC 6598)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata endpoints
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (RFC 6890)
  '192.0.2.0/24', // documentation TEST-NET-1 (RFC 5737)
  '192.88.99.0/24', // 6to4 relay anycast, deprecated (RFC 7526)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation TEST-NET-2
  '203.0.113.0/24', // documentation TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved (RFC 1112), 255.255.255.255 (limited broadcast) included
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const REFUSED_V6: Cidr6[] = [
  '::/128', // unspecified
  '::1/128', // loopback
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated, RFC 3879)
  'ff00::/8', // multicast
  '2001:db8::/32', // documentation (RFC 3849)
  '3fff::/20', // documentation (RFC 9637)
  '100::/64', // discard-only (RFC 6666)
  '100:0:0:1::/64', // dummy prefix (RFC 9780); not named by ipaddr.js 2.5
  '2001::/23', // IETF protocol assignments, Teredo (2001::/32) included: refused entirely (see below)
  '2002::/16', // 6to4: refused entirely (see below)
  '64:ff9b:1::/48', // local-use IPv4/IPv6 translation (RFC 8215)
  '5f00::/16', // SRv6 SIDs (RFC 9602)
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** Allocated global unicast IPv6 space: addresses outside it are unallocated or special. */
const GLOBAL_UNICAST_V6: Cidr6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** IPv4-mapped addresses: a dual-stack socket connects to the IPv4 address in the last 32 bits. */
const IPV4_MAPPED: Cidr6 = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
/** IPv4-compatible addresses (deprecated, RFC 4291): the IPv4 address is in the last 32 bits. */
const IPV4_COMPATIBLE: Cidr6 = ipaddr.IPv6.parseCIDR('::/96');
/** Well-known NAT64 prefix (RFC 6052): a NAT64 gateway connects to the IPv4 address in the last 32 bits. */
const NAT64_WELL_KNOWN: Cidr6 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * The host names and addresses of this machine's loopback interface: `localhost` (and names under
 * it, RFC 6761), 127.0.0.0/8 in dotted decimal, and ::1. An IPv4 literal in another spelling
 * (`127.1`, `2130706433`) is not recognised here: `isInternalAddress` refuses it.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  if (family === 4) return ipaddr.IPv4.parse(name).range() === 'loopback';
  if (family === 6) {
    const address = ipaddr.IPv6.parse(name);
    return address.zoneId === undefined && address.range() === 'loopback';
  }
  return false;
}

/**
 * True for every address that is not global unicast: loopback, private, CGNAT, link-local (cloud
 * metadata), multicast, unspecified, reserved, documentation and the other special-purpose ranges,
 * and IPv6 addresses that reach such an IPv4 address (mapped, compatible, NAT64). Fails closed:
 * anything that is not an IP address in the form `net.isIP` accepts (and the socket layer would
 * connect to as is) counts as internal, as does an IPv6 address with a zone id (`fe80::1%eth0`).
 * Other IPv4 spellings (`2130706433`, `0x7f.0.0.1`, `017700000001`) are refused here; in a URL
 * the WHATWG parser turns them into dotted decimal before a caller sees the host.
 */
export function isInternalAddress(address: string): boolean {
  return !isGlobalUnicast(address);
}

function isGlobalUnicast(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isGlobalUnicastV4(ipaddr.IPv4.parse(address));
  if (family === 6) return isGlobalUnicastV6(ipaddr.IPv6.parse(address));
  return false;
}

function isGlobalUnicastV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast' && !REFUSED_V4.some((cidr) => address.match(cidr));
}

function isGlobalUnicastV6(address: ipaddr.IPv6): boolean {
  // A zone id scopes an address to one link: never a global destination.
  if (address.zoneId !== undefined) return false;
  // Refused whatever they carry (IANA special-purpose registry: neither is "globally reachable"):
  // - 6to4 (2002::/16, deprecated by RFC 7526) embeds an IPv4 address in bits 16-48 and is
  //   delivered through a relay or a local 6to4 interface to that IPv4 address, internal or not;
  // - Teredo (2001::/32) embeds the Teredo server's IPv4 address (bits 32-64) and the client's
  //   (the last 32 bits, inverted), and is delivered through a Teredo relay or a local tunnel.
  // Legitimate partner endpoints use neither, and refusing them entirely leaves no embedded
  // address (nor relay behaviour) to get wrong. Likewise the NAT64 local-use prefix
  // 64:ff9b:1::/48 (RFC 8215), whose mapping to IPv4 is site-specific and unknown here.
  if (REFUSED_V6.some((cidr) => address.match(cidr))) return false;
  // Forms that carry an IPv4 destination in their last 32 bits are judged by that IPv4 address:
  // IPv4-mapped (::ffff:a.b.c.d, however spelt), IPv4-compatible (::a.b.c.d, deprecated) and the
  // well-known NAT64 prefix (64:ff9b::a.b.c.d: globally reachable per IANA when the IPv4 is).
  if (address.match(IPV4_MAPPED) || address.match(IPV4_COMPATIBLE) || address.match(NAT64_WELL_KNOWN)) {
    return isGlobalUnicastV4(lastIPv4Of(address));
  }
  // ipaddr.js calls unallocated space (e.g. 4000::/3) 'unicast' too: only 2000::/3 is allocated.
  return address.match(GLOBAL_UNICAST_V6) && address.range() === 'unicast';
}

function lastIPv4Of(address: ipaddr.IPv6): ipaddr.IPv4 {
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}
