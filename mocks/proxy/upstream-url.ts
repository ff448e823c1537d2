/**
 * The proxy's upstream as the command line names it: its base URL read and checked, and the
 * default waits. Apart from the connection pool (upstream.ts) so that the command line, which
 * every start reads, loads neither the proxy nor Node's HTTPS and TLS modules.
 */
import { maskUrl } from '../stores/redis-target.js';

/** --proxy-timeout's default: the longest wait for an upstream's whole answer. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
/** --proxy-connect-timeout's default: the longest wait for a new connection, TLS included. */
export const DEFAULT_PROXY_CONNECT_TIMEOUT_MS = 5_000;
/** A base URL the proxy cannot forward to; the message names it with its password masked. */
export class UpstreamUrlError extends Error {
  override name = 'UpstreamUrlError';
}

export interface UpstreamTarget {
  url: URL;
  /** The URL for logs, /__mock/health and messages: the password masked. */
  display: string;
  /** The base path without a trailing slash ('' for none): every request target is appended to it. */
  prefix: string;
  tls: boolean;
  /** `user:password` of the URL, sent as Basic credentials when a request carries no Authorization of its own. */
  basic: string | undefined;
}

/** Reads `http(s)://[user:password@]host[:port][/prefix]`; anything else is refused with the URL masked. */
export function parseUpstreamUrl(text: string): UpstreamTarget {
  const display = maskUrl(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UpstreamUrlError(`${display} is not a URL; expected http(s)://host[:port][/path prefix]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamUrlError(`${display} has the scheme ${url.protocol.slice(0, -1)}; expected http or https`);
  if (!url.hostname) throw new UpstreamUrlError(`${display} names no host`);
  if (url.search || url.hash) throw new UpstreamUrlError(`${display} has a query or fragment; each request brings its own query`);
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    url,
    display: maskUrl(url.href.replace(/\/$/, '')),
    prefix,
    tls: url.protocol === 'https:',
    basic: url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
  };
}
