import net from 'node:net';
import { simpleMatch } from '../../wildcard/index.js';
import { patternsCover } from '../classify/authorize-indices.js';
import type { Credential } from './credential.js';

export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a bare address (a one-address range); undefined if malformed. */
export function cidrOf(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const version = net.isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const rest = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(rest)) return undefined;
    prefix = Number(rest);
    if (prefix > max) return undefined;
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The request-side checks of one credential, compiled once: where a request may come from,
 * which `Referer` it may carry, which index names its patterns cover. Authorization (the lead's
 * middleware) asks these; the credential module does not decide categories or operations.
 */
export class CredentialAccess {
  private readonly sources: net.BlockList | undefined;
  private readonly referers: readonly string[];
  private readonly indexPatterns: readonly string[];

  constructor(credential: Pick<Credential, 'sources' | 'referers' | 'indices'>) {
    if (credential.sources.length > 0) {
      this.sources = new net.BlockList();
      for (const text of credential.sources) {
        const cidr = cidrOf(text);
        if (cidr) this.sources.addSubnet(cidr.address, cidr.prefix, cidr.family);
      }
    }
    this.referers = credential.referers;
    this.indexPatterns = credential.indices;
  }

  /** True when no sources are set or `ip` (IPv4, IPv6, or IPv4-mapped IPv6) is in one of them. */
  allowsSource(ip: string | undefined): boolean {
    if (!this.sources) return true;
    if (!ip) return false;
    const version = net.isIP(ip);
    if (version === 0) return false;
    return this.sources.check(ip, version === 4 ? 'ipv4' : 'ipv6');
  }

  /** True when no referer patterns are set or `referer` matches one (case-insensitive, `*` = anything). */
  allowsReferer(referer: string | undefined): boolean {
    if (this.referers.length === 0) return true;
    if (!referer) return false;
    return this.referers.some((pattern) => simpleMatch(pattern, referer, true));
  }

  /** True when one of the credential's index names or patterns covers the concrete index `name` (the authorizer's meaning). */
  coversIndex(name: string): boolean {
    return patternsCover(this.indexPatterns, name);
  }
}

const compiled = new WeakMap<object, CredentialAccess>();

/** The compiled checks of a credential object, built once per object (principals are cached). */
export function accessOf(credential: Credential): CredentialAccess {
  let access = compiled.get(credential);
  if (!access) {
    access = new CredentialAccess(credential);
    compiled.set(credential, access);
  }
  return access;
}
