import { isIP } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Loopback, private, CGNAT, link-local (cloud metadata), multicast, unspecified and reserved ranges. */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && (b === 18 || b === 19))
    );
  }
  const v6 = address.toLowerCase();
  if (v6 === '::' || v6 === '::1') return true;
  // IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d), in
  // dotted or hex form (the URL parser writes [::ffff:10.0.0.1] as [::ffff:a00:1]): judge the IPv4.
  const embedded = /^(?:::ffff:|::|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(v6);
  if (embedded) {
    if (embedded[1]) return isInternalAddress(embedded[1]);
    const high = parseInt(embedded[2]!, 16);
    const low = parseInt(embedded[3]!, 16);
    return isInternalAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return /^(fc|fd|fe[89ab]|ff)/.test(v6);
}
