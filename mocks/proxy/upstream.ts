/**
 * The one service the proxy forwards to: its base URL (which may carry a path prefix), how to name
 * it in messages without its credentials, and a keep-alive connection pool of bounded size.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { maskUrl } from '../stores/redis-target.js';

/** Connections kept to the upstream at most; further requests wait for one (within --proxy-timeout). */
export const DEFAULT_UPSTREAM_SOCKETS = 128;
// Here rather than in proxy.ts: the command line reads them, and a mock without --proxy does not load the proxy.
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
export const DEFAULT_PROXY_CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long an idle connection is kept: below the 5 s after which Node's own HTTP server closes an
 * idle connection, so a request is not sent on a connection the upstream is closing at that moment.
 */
const IDLE_SOCKET_MS = 4000;

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

/** The upstream's connection pool and how a request to it is started. */
export class Upstream {
  readonly agent: HttpAgent;

  constructor(
    readonly target: UpstreamTarget,
    sockets: number = DEFAULT_UPSTREAM_SOCKETS,
  ) {
    const options = { keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: 'lifo' as const, timeout: IDLE_SOCKET_MS };
    this.agent = target.tls ? new HttpsAgent(options) : new HttpAgent(options);
  }

  get display(): string {
    return this.target.display;
  }

  /** Starts a request for `requestTarget` (path and query as the client sent them) under the base URL. */
  request(method: string, requestTarget: string, headers: OutgoingHttpHeaders): ClientRequest {
    const { url, prefix, tls } = this.target;
    const options = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (tls ? 443 : 80),
      method,
      path: prefix + requestTarget,
      headers,
      agent: this.agent,
      // SNI and the certificate check name the upstream's host, whatever Host the client sent.
      servername: tls && !/^[\d.]+$|:/.test(url.hostname) ? url.hostname : undefined,
    };
    return tls ? httpsRequest(options) : httpRequest(options);
  }

  /** Closes every pooled connection (at shutdown). */
  close(): void {
    this.agent.destroy();
  }
}
