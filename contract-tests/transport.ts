/**
 * Sending one request exactly as rendered (node:http, so no header is added behind our back
 * the way fetch adds Content-Type to a string body) and classifying what came back: a
 * complete answer, a timeout or a dropped connection. Every exchange is bounded by the timeout.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { ReceivedResponse } from './model.js';

/** Bytes of a response body kept for the checks and the reports. */
export const BODY_LIMIT = 1024 * 1024;
/**
 * Body bytes one transport keeps in all: every exchange stays in memory until the report, so a
 * provider answering a megabyte to each of thousands of cases would otherwise exhaust the heap.
 * Past it, an answer keeps SPENT_BODY_LIMIT bytes (cut, as the report says).
 */
export const BODY_BUDGET = 128 * 1024 * 1024;
export const SPENT_BODY_LIMIT = 64 * 1024;

export type Outcome =
  { outcome: 'response'; response: ReceivedResponse; elapsedMs: number } | { outcome: 'timeout'; timeoutMs: number; elapsedMs: number } | { outcome: 'dropped'; error: string; elapsedMs: number };

export interface OutgoingRequest {
  url: URL;
  method: string;
  /** An array value sends the header once per value, in order. */
  headers: Record<string, string | string[]>;
  body: string | Uint8Array | undefined;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<Outcome>;
  close(): void;
}

/**
 * Why node:http cannot send `request` as rendered (a header name or value holding a character
 * HTTP cannot carry: a header parameter is never percent-encoded), or undefined when it can. The
 * runner reports such a case as not sent, with this reason, instead of failing on it.
 */
export function unsendable(request: Pick<OutgoingRequest, 'headers'>): string | undefined {
  for (const [name, value] of Object.entries(request.headers)) {
    try {
      http.validateHeaderName(name);
    } catch {
      return `not sent: the header name ${JSON.stringify(name)} is not an HTTP field name`;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      try {
        http.validateHeaderValue(name, one);
      } catch {
        const bad = [...one].find((c) => !/^[\t\x20-\x7e\x80-\xff]$/.test(c)) ?? '';
        return `not sent: the ${name} header's value holds a character an HTTP header cannot carry (U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`;
      }
    }
  }
  return undefined;
}

export function createTransport(options: { timeoutMs: number; concurrency: number; bodyBudget?: number }): Transport {
  const agentOptions = { keepAlive: true, maxSockets: options.concurrency };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const budget = options.bodyBudget ?? BODY_BUDGET;
  let kept = 0;
  const once = (request: OutgoingRequest): Promise<Outcome & { reusedSocket?: boolean }> =>
    new Promise((resolve) => {
      const started = performance.now();
      const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
      let settled = false;
      const settle = (outcome: Outcome & { reusedSocket?: boolean }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const secure = request.url.protocol === 'https:';
      const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
      const headers = { ...request.headers, 'content-length': String(body?.length ?? 0) };
      const req = (secure ? https : http).request(request.url, {
        method: request.method,
        headers,
        agent: secure ? agents.https : agents.http,
      });
      const timer = setTimeout(() => {
        settle({ outcome: 'timeout', timeoutMs: options.timeoutMs, elapsedMs: elapsed() });
        req.destroy();
      }, options.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        settle({ outcome: 'dropped', error: describeError(error), elapsedMs: elapsed(), reusedSocket: req.reusedSocket });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const limit = kept < budget ? BODY_LIMIT : SPENT_BODY_LIMIT;
        res.on('data', (chunk: Buffer) => {
          if (size + chunk.length <= limit) chunks.push(chunk);
          else {
            if (size < limit) chunks.push(chunk.subarray(0, limit - size));
            truncated = true;
          }
          size += chunk.length;
        });
        res.on('end', () => {
          kept += Math.min(size, limit);
          const response: ReceivedResponse = {
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: flattenHeaders(res.headers),
            body: Buffer.concat(chunks).toString('utf8'),
            truncated,
          };
          settle({ outcome: 'response', response, elapsedMs: elapsed() });
        });
        res.on('close', () => {
          if (!res.complete) {
            settle({ outcome: 'dropped', error: `the connection closed mid-answer (status ${res.statusCode} and ${size} body bytes received)`, elapsedMs: elapsed() });
          }
        });
        res.on('error', () => undefined); // 'close' above reports it
      });
      req.end(body);
    });

  return {
    async send(request) {
      const first = await once(request);
      // A keep-alive socket the server closed while idle fails on reuse; Node's documented
      // remedy is one retry on a fresh socket. A provider that really drops fails both times.
      if (first.outcome === 'dropped' && first.reusedSocket) return strip(await once(request));
      return strip(first);
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function strip(outcome: Outcome & { reusedSocket?: boolean }): Outcome {
  const { reusedSocket: _reused, ...rest } = outcome;
  return rest as Outcome;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNRESET') return 'the provider reset the connection (ECONNRESET) before answering';
  if (error.message === 'socket hang up') return 'the provider closed the connection without answering (socket hang up)';
  return error.code ? `${error.message} (${error.code})` : error.message;
}
