/**
 * Which Host a request may name (DNS rebinding). A page on `http://attacker.example:4010` whose
 * name the attacker re-points at 127.0.0.1 talks to the mock as its own origin, so CORS cannot
 * stop it; what gives it away is the Host header, which still says `attacker.example`. The mock
 * answers only Hosts that are its own address, a loopback name, or one the user allowed, as
 * webpack-dev-server and Vite do since their DNS-rebinding advisories.
 */

/** `--allowed-hosts`: names (`.example.test` for a domain and its subdomains), or `all`. */
export type AllowedHosts = readonly string[] | 'all';

/** Distinct Host values whose decision is remembered; more only costs recomputing. */
const DECISIONS_KEPT = 256;

export class HostPolicy {
  readonly #exact = new Set<string>(['localhost', '127.0.0.1', '[::1]']);
  readonly #domains: string[] = [];
  readonly #anyAddress: boolean;
  readonly #all: boolean;
  readonly #decisions = new Map<string, boolean>();

  /**
   * `listening`: the address the server is bound to (`0.0.0.0` or `::` when on every address);
   * `configured`: the --host it was given (a name such as `localhost` or `myhost`).
   */
  constructor(listening: string, configured: string, allowed: AllowedHosts = []) {
    this.#all = allowed === 'all';
    this.#anyAddress = listening === '0.0.0.0' || listening === '::';
    for (const name of [listening, configured, ...(allowed === 'all' ? [] : allowed)]) {
      const host = hostnameOf(name.includes(':') && !name.startsWith('[') ? `[${name}]` : name);
      if (host === undefined) continue;
      if (host.startsWith('.')) this.#domains.push(host);
      else this.#exact.add(host);
    }
  }

  /** Whether a request naming `host` (its Host header, or an absolute-form target's authority) is answered. */
  allows(host: string): boolean {
    if (this.#all) return true;
    let decision = this.#decisions.get(host);
    if (decision === undefined) {
      decision = this.#decide(host);
      if (this.#decisions.size >= DECISIONS_KEPT) this.#decisions.clear();
      this.#decisions.set(host, decision);
    }
    return decision;
  }

  #decide(host: string): boolean {
    const name = hostnameOf(host);
    if (name === undefined) return false;
    if (this.#exact.has(name) || name.endsWith('.localhost') || IPV4_LOOPBACK.test(name)) return true;
    // Listening on every address: any address literal names the mock (and an address cannot be rebound).
    if (this.#anyAddress && (IPV4.test(name) || name.startsWith('['))) return true;
    return this.#domains.some((domain) => name === domain.slice(1) || name.endsWith(domain));
  }
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV4_LOOPBACK = /^127(?:\.\d{1,3}){3}$/;
/** What a Host header may hold: reg-name or IPv4 (RFC 3986 characters), or a bracketed IPv6, and a port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/;

/** The host name of a Host value, lower-case, without port or trailing dot; undefined when malformed. */
export function hostnameOf(host: string): string | undefined {
  const match = HOST.exec(host.trim().toLowerCase());
  if (!match) return undefined;
  const name = match[1] as string;
  return name.endsWith('.') && name.length > 1 ? name.slice(0, -1) : name;
}

/** The host a request names: an absolute-form target's authority wins over Host (RFC 9112 §3.2.2). */
export function requestedHost(target: string | undefined, hostHeader: string | undefined): string | undefined {
  if (target === undefined || target.charCodeAt(0) === 47 /* / */) return hostHeader;
  const scheme = target.indexOf('://');
  if (scheme === -1) return hostHeader; // asterisk-form (OPTIONS *) names no host
  const start = scheme + 3;
  let end = start;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  const authority = target.slice(start, end);
  return authority.slice(authority.lastIndexOf('@') + 1);
}
