import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which push endpoints the server will ever contact (decision 115). A
 * subscription's endpoint is a URL the client chose, so accepting it
 * blindly would let anyone make the server call any address (SSRF):
 * - at subscribe time: https on port 443, a host on the allow-list
 *   (PUSH_ALLOWED_HOSTS, the browsers' push services by default), no IP
 *   literal, no credentials;
 * - at send time: the same check again (the list may have changed), and
 *   every address the host resolves to must be public; the connection is
 *   made to the address that was checked (the lookup below), so a name
 *   that resolves differently a moment later changes nothing.
 * PUSH_ALLOW_INSECURE_ENDPOINTS (tests only, refused in production) lets an
 * http or https endpoint on a loopback or private address through: a push
 * service the test runs itself.
 */
export type EndpointPolicy = { allowedHosts: readonly string[]; allowInsecureEndpoints: boolean };

export const ENDPOINT_MAX_LENGTH = 1024;

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127], // :: and ::1
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Loopback and private (RFC 1918, unique-local) addresses: where a test's own push service may listen. */
const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isPublicAddress(address: string): boolean {
  const a = unmapped(address);
  return !NOT_PUBLIC.check(a.address, a.family);
}

function isLocalAddress(address: string): boolean {
  const a = unmapped(address);
  return LOCAL.check(a.address, a.family);
}

/** Whether the server may connect to this address under the policy. */
export function addressAllowed(address: string, policy: EndpointPolicy): boolean {
  return isPublicAddress(address) || (policy.allowInsecureEndpoints && isLocalAddress(address));
}

export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((pattern) =>
    pattern.startsWith('*.') ? h.endsWith(pattern.slice(1)) && h.length > pattern.length - 1 : h === pattern,
  );
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Why an endpoint is refused, in words for the person who sent it; null when it is accepted. */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): string | null {
  if (endpoint.length > ENDPOINT_MAX_LENGTH) return `Must be at most ${ENDPOINT_MAX_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'Must be the push service URL the browser gave (pushManager.subscribe).';
  }
  if (url.username || url.password) return 'Must not carry a user name or password.';
  const host = bareHost(url);
  const literal = isIP(host) !== 0;
  if (policy.allowInsecureEndpoints && (host === 'localhost' || (literal && isLocalAddress(host))) && /^https?:$/.test(url.protocol))
    return null;
  if (url.protocol !== 'https:') return 'Must be an https:// address of a push service.';
  if (literal) return 'Must name a push service, not an IP address.';
  if (url.port && url.port !== '443') return 'Must use the standard https port.';
  if (!hostAllowed(host, policy.allowedHosts)) return `${host} is not a push service this server sends to.`;
  return null;
}

/** Thrown when a send is refused before any connection is made. */
export class RefusedEndpointError extends Error {}

/**
 * A DNS lookup for http(s).request that answers only with addresses the
 * policy allows, and fails when the name resolves to any other: the
 * request then connects to an address that was checked.
 */
export function guardedLookup(policy: EndpointPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !addressAllowed(a.address, policy));
      if (refused || addresses.length === 0) {
        return callback(
          new RefusedEndpointError(`${hostname} resolves to an address that is not public (${refused?.address ?? 'none'})`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The send-time check of a host written as an address (no lookup happens for those). */
export function literalHostProblem(url: URL, policy: EndpointPolicy): string | null {
  const host = bareHost(url);
  if (isIP(host) === 0) return null;
  return addressAllowed(host, policy) ? null : `${host} is not a public address`;
}
