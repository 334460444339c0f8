import { isInternalAddress, isLoopbackHost } from './outbound-address';
import { outboundUrlProblem } from './outbound-url';

const ALLOWED = 'allowed';
const REFUSED = 'refused';

// Address, expected, why. The IANA special-purpose registries of both families, with neighbours
// of the range boundaries, and the IPv6 forms that carry an IPv4 address.
const ADDRESSES: Array<[string, typeof ALLOWED | typeof REFUSED, string]> = [
  // Global unicast IPv4
  ['8.8.8.8', ALLOWED, 'public resolver'],
  ['1.1.1.1', ALLOWED, 'public resolver'],
  ['93.184.216.34', ALLOWED, 'public host'],
  ['223.255.255.255', ALLOWED, 'last address below multicast'],
  // IPv4 special-purpose ranges and their boundaries
  ['0.0.0.0', REFUSED, 'unspecified'],
  ['0.255.255.255', REFUSED, '0.0.0.0/8 "this network"'],
  ['1.0.0.0', ALLOWED, 'first address after 0.0.0.0/8'],
  ['9.255.255.255', ALLOWED, 'just below 10/8'],
  ['10.0.0.0', REFUSED, 'private 10/8, first'],
  ['10.255.255.255', REFUSED, 'private 10/8, last'],
  ['11.0.0.0', ALLOWED, 'just above 10/8'],
  ['100.63.255.255', ALLOWED, 'just below CGNAT'],
  ['100.64.0.0', REFUSED, 'CGNAT 100.64/10, first'],
  ['100.127.255.255', REFUSED, 'CGNAT 100.64/10, last'],
  ['100.128.0.0', ALLOWED, 'just above CGNAT'],
  ['127.0.0.1', REFUSED, 'loopback'],
  ['127.255.255.254', REFUSED, 'loopback 127/8, end'],
  ['169.254.169.254', REFUSED, 'link-local: cloud metadata'],
  ['169.254.0.1', REFUSED, 'link-local'],
  ['172.15.255.255', ALLOWED, 'just below 172.16/12'],
  ['172.16.0.0', REFUSED, 'private 172.16/12, first'],
  ['172.31.255.255', REFUSED, 'private 172.16/12, last'],
  ['172.32.0.0', ALLOWED, 'just above 172.16/12'],
  ['192.0.0.8', REFUSED, 'IETF protocol assignments 192.0.0.0/24'],
  ['192.0.2.1', REFUSED, 'documentation TEST-NET-1'],
  ['192.88.99.1', REFUSED, '6to4 relay anycast (deprecated)'],
  ['192.168.0.1', REFUSED, 'private 192.168/16'],
  ['192.169.0.1', ALLOWED, 'just above 192.168/16'],
  ['198.17.255.255', ALLOWED, 'just below benchmarking'],
  ['198.18.0.0', REFUSED, 'benchmarking 198.18/15, first'],
  ['198.19.255.255', REFUSED, 'benchmarking 198.18/15, last'],
  ['198.20.0.0', ALLOWED, 'just above benchmarking'],
  ['198.51.100.7', REFUSED, 'documentation TEST-NET-2'],
  ['203.0.113.5', REFUSED, 'documentation TEST-NET-3'],
  ['224.0.0.1', REFUSED, 'multicast'],
  ['239.255.255.255', REFUSED, 'multicast, last'],
  ['240.0.0.1', REFUSED, 'reserved 240/4'],
  ['255.255.255.255', REFUSED, 'limited broadcast'],
  // Global unicast IPv6
  ['2606:4700:4700::1111', ALLOWED, 'public resolver'],
  ['2a00:1450::1', ALLOWED, 'public host'],
  ['2001:4860:4860::8888', ALLOWED, 'public resolver, just outside 2001::/23'],
  ['2001:200::1', ALLOWED, 'first /23 after the IETF protocol assignments'],
  // IPv6 special-purpose ranges
  ['::', REFUSED, 'unspecified'],
  ['0:0:0:0:0:0:0:0', REFUSED, 'unspecified, spelt out'],
  ['::1', REFUSED, 'loopback'],
  ['0:0:0:0:0:0:0:1', REFUSED, 'loopback, spelt out'],
  ['fc00::1', REFUSED, 'unique local fc00::/7'],
  ['fdff:ffff::1', REFUSED, 'unique local fd00::/8'],
  ['fe80::1', REFUSED, 'link-local'],
  ['febf:ffff::1', REFUSED, 'link-local, end of fe80::/10'],
  ['fec0::1', REFUSED, 'site-local (deprecated)'],
  ['ff02::1', REFUSED, 'multicast'],
  ['2001:db8::1', REFUSED, 'documentation 2001:db8::/32'],
  ['3fff::1', REFUSED, 'documentation 3fff::/20'],
  ['3fff:fff:ffff::1', REFUSED, 'documentation 3fff::/20, end'],
  ['100::1', REFUSED, 'discard-only 100::/64'],
  ['100:0:0:1::1', REFUSED, 'dummy prefix 100:0:0:1::/64'],
  ['2001:1::1', REFUSED, 'IETF protocol assignments 2001::/23 (PCP anycast)'],
  ['2001:2::1', REFUSED, 'benchmarking 2001:2::/48'],
  ['2001:10::1', REFUSED, 'ORCHID (deprecated)'],
  ['2001:20::1', REFUSED, 'ORCHIDv2'],
  ['2001:1ff:ffff::1', REFUSED, 'IETF protocol assignments 2001::/23, end'],
  ['5f00::1', REFUSED, 'SRv6 SIDs 5f00::/16'],
  ['4000::1', REFUSED, 'unallocated, outside 2000::/3'],
  ['::ffff:0:a00:1', REFUSED, 'IPv4-translated ::ffff:0:0:0/96'],
  // IPv4-mapped
  ['::ffff:127.0.0.1', REFUSED, 'mapped loopback'],
  ['::ffff:7f00:1', REFUSED, 'mapped loopback, hex'],
  ['0:0:0:0:0:ffff:127.0.0.1', REFUSED, 'mapped loopback, spelt out'],
  ['::ffff:10.0.0.1', REFUSED, 'mapped private'],
  ['::ffff:a9fe:a9fe', REFUSED, 'mapped metadata address, hex'],
  ['::ffff:100.64.0.1', REFUSED, 'mapped CGNAT'],
  ['::ffff:8.8.8.8', ALLOWED, 'mapped public'],
  ['::ffff:808:808', ALLOWED, 'mapped public, hex'],
  // IPv4-compatible (deprecated)
  ['::127.0.0.1', REFUSED, 'compatible loopback'],
  ['::7f00:1', REFUSED, 'compatible loopback, hex'],
  ['::a00:1', REFUSED, 'compatible private'],
  ['::0.0.0.2', REFUSED, 'compatible 0/8'],
  ['::8.8.8.8', ALLOWED, 'compatible public'],
  // NAT64
  ['64:ff9b::a9fe:a9fe', REFUSED, 'NAT64 well-known prefix, metadata address'],
  ['64:ff9b::127.0.0.1', REFUSED, 'NAT64 well-known prefix, loopback'],
  ['64:ff9b::c0a8:1', REFUSED, 'NAT64 well-known prefix, private'],
  ['64:ff9b::8.8.8.8', ALLOWED, 'NAT64 well-known prefix, public'],
  ['64:ff9b:1::808:808', REFUSED, 'NAT64 local-use prefix, public inside'],
  ['64:ff9b:1::a00:1', REFUSED, 'NAT64 local-use prefix, private inside'],
  // 6to4: refused whatever it carries
  ['2002:7f00:1::1', REFUSED, '6to4 with loopback inside'],
  ['2002:a00:1::1', REFUSED, '6to4 with private inside'],
  ['2002:a9fe:a9fe::1', REFUSED, '6to4 with metadata address inside'],
  ['2002:808:808::1', REFUSED, '6to4 with public inside'],
  // Teredo (server IPv4 in bits 32-64, client IPv4 inverted in the last 32): refused entirely
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', REFUSED, 'Teredo, client 127.0.0.1'],
  ['2001:0:a00:1:0:0:f7f7:f7f7', REFUSED, 'Teredo, private server, public client 8.8.8.8'],
  ['2001:0:808:808::f7f7:f7f7', REFUSED, 'Teredo, public server and client'],
  // Zone ids and non-addresses: fail closed
  ['fe80::1%eth0', REFUSED, 'link-local with zone id'],
  ['2606:4700:4700::1111%eth0', REFUSED, 'global address with zone id'],
  ['2130706433', REFUSED, 'IPv4 as one decimal number (not an address for net.isIP)'],
  ['0x7f.0.0.1', REFUSED, 'IPv4 with a hex part'],
  ['017700000001', REFUSED, 'IPv4 as one octal number'],
  ['010.0.0.1', REFUSED, 'IPv4 with a leading zero (octal 8 or decimal 10?)'],
  ['127.1', REFUSED, 'IPv4 shorthand'],
  ['example.com', REFUSED, 'a name, not an address'],
  ['', REFUSED, 'empty'],
];

describe('outbound address rules: only global unicast is allowed', () => {
  it.each(ADDRESSES)('%s is %s (%s)', (address, expected) => {
    expect(isInternalAddress(address)).toBe(expected === REFUSED);
  });

  it('has a row for every range it is meant to cover', () => {
    expect(ADDRESSES.length).toBeGreaterThanOrEqual(40);
  });
});

describe('outbound address rules through URL hosts', () => {
  // The WHATWG URL parser turns IPv4 spellings into dotted decimal and compresses IPv6 before
  // `outboundUrlProblem` (and SafeHttpClient) see the host.
  it.each([
    ['https://2130706433/', 'must not point at this host'],
    ['https://0x7f.0.0.1/', 'must not point at this host'],
    ['https://017700000001/', 'must not point at this host'],
    ['https://0xa9fea9fe/latest/meta-data', 'must not point at a private or internal address'],
    ['https://10.1/', 'must not point at a private or internal address'],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/', 'must not point at a private or internal address'],
    ['https://[::127.0.0.1]/', 'must not point at a private or internal address'],
    ['https://[64:ff9b::169.254.169.254]/', 'must not point at a private or internal address'],
    ['https://[2002:a9fe:a9fe::]/', 'must not point at a private or internal address'],
    ['https://[0:0:0:0:0:0:0:1]/', 'must not point at this host'],
    ['https://[2606:4700:4700::1111]/', undefined],
    ['https://0x08080808/', undefined],
  ])('%s → %s', (url, problem) => {
    expect(outboundUrlProblem(url, { allowLoopbackHttp: false })).toBe(problem);
  });
});

describe('loopback hosts', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['127.255.255.255', true],
    ['example.com', false],
    ['localhost.example.com', false],
    ['10.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['2130706433', false],
    ['fe80::1%lo', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
