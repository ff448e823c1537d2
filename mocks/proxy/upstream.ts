/**
 * The one service the proxy forwards to: its base URL (which may carry a path prefix), how to name
 * it in messages without its credentials, and a keep-alive connection pool of bounded size.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { UpstreamTarget } from './upstream-url.js';

/** Connections kept to the upstream at most; further requests wait for one (within --proxy-timeout). */
export const DEFAULT_UPSTREAM_SOCKETS = 128;
/**
 * How long an idle connection is kept: below the 5 s after which Node's own HTTP server closes an
 * idle connection, so a request is not sent on a connection the upstream is closing at that moment.
 */
const IDLE_SOCKET_MS = 4000;

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
