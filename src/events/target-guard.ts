// Which addresses a webhook may be sent to. Only public unicast addresses: loopback, private (RFC 1918,
// carrier-grade NAT, unique local), link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254),
// unspecified, multicast, reserved and the IPv6 ranges that embed an IPv4 address are refused, unless the
// allowlist (a development setting) names the host, the address or its network. Checked twice: on the URL
// (an address literal, which the URL parser has already decoded from decimal, octal or hex forms) and on every
// address a name resolves to, at connect time, so a name that resolves elsewhere later cannot slip through.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

export interface TargetGuard {
  /** Throws TargetRefused for a URL that is not http(s) or names a refused address literal. */
  checkUrl(url: string): URL;
  /** A `lookup` for net.connect that resolves only to allowed addresses. */
  lookup: LookupFunction;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Strips the brackets of an IPv6 literal in a URL's hostname. */
const bare = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

function parseAllowList(entries: readonly string[]): { hosts: Set<string>; networks: Array<[Address, number]> } {
  const hosts = new Set<string>();
  const networks: Array<[Address, number]> = [];
  for (const entry of entries.map((e) => bare(e.trim())).filter(Boolean)) {
    if (entry.includes('/')) networks.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.process(entry);
      networks.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry);
  }
  return { hosts, networks };
}

export function targetGuard(allow: readonly string[]): TargetGuard {
  const allowed = parseAllowList(allow);
  const addressAllowed = (text: string): boolean => {
    if (!ipaddr.isValid(text)) return false;
    // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    const addr = ipaddr.process(text);
    if (allowed.networks.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return true;
    return addr.range() === 'unicast';
  };

  const checkUrl = (raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new TargetRefused('not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefused('only http and https URLs');
    if (url.username || url.password) throw new TargetRefused('a URL with credentials');
    const host = bare(url.hostname);
    if (allowed.hosts.has(host)) return url;
    if (ipaddr.isValid(host) && !addressAllowed(host))
      throw new TargetRefused(`the address ${host} is not a public address`);
    return url;
  };

  const lookup: LookupFunction = (hostname, options, callback) => {
    const host = bare(hostname);
    dnsLookup(host, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = allowed.hosts.has(host) ? addresses : addresses.filter((a) => addressAllowed(a.address));
      if (usable.length === 0) {
        const refused = new TargetRefused(
          `${host} resolves to ${addresses.map((a) => a.address).join(', ')}: not a public address`,
        );
        return callback(Object.assign(refused, { code: 'ETARGETREFUSED' }), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };

  return { checkUrl, lookup };
}
