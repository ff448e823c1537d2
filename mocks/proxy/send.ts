/**
 * Writing a proxied answer to the client: the upstream's status, reason phrase and end-to-end
 * headers, the mock's CORS headers instead of the upstream's, the verdict header, and the body —
 * the bytes that were read and judged, then whatever the upstream still sends, streamed with
 * backpressure. Nothing in the body is re-encoded.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';

/** Response fields a page can read cross-origin without their being exposed (Fetch: CORS-safelisted). */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
/** Fields a page can never read, exposed or not (Fetch: forbidden response header names). */
const FORBIDDEN = new Set(['set-cookie', 'set-cookie2']);

/**
 * The upstream's fields with the mock's CORS fields: Vary keeps both lists, and
 * Access-Control-Expose-Headers adds the upstream's own fields to the mock's, so a page reads
 * them as it would from the upstream.
 */
export function withCors(headers: Record<string, string | string[]>, cors: Readonly<Record<string, string>>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ...headers };
  for (const [name, value] of Object.entries(cors)) {
    if (name === 'vary' && headers.vary !== undefined) out.vary = [...[headers.vary].flat(), value].join(', ');
    else if (name === 'access-control-expose-headers') {
      const upstream = Object.keys(headers).filter((field) => !SAFELISTED.has(field) && !FORBIDDEN.has(field));
      out[name] = [value, ...upstream].join(', ');
    } else out[name] = value;
  }
  return out;
}

/** Header fields as one value each (repeated ones joined), for the journal. */
export function flatHeaders(headers: OutgoingHttpHeaders): Record<string, string | number> {
  const flat: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export interface ProxiedBody {
  /** The bytes read so far (the whole body when `rest` is undefined). */
  head: readonly Buffer[];
  size: number;
  /** The rest of the upstream's body, still to be streamed. */
  rest: IncomingMessage | undefined;
}

/**
 * Writes the answer; resolves once it is sent, or with the reason it was cut (the upstream failed
 * or the client went away mid-body: the client's connection is then closed, as the only way left
 * to say the body is incomplete).
 */
export async function sendProxied(res: ServerResponse, status: number, reason: string | undefined, headers: OutgoingHttpHeaders, body: ProxiedBody): Promise<Error | undefined> {
  if (body.rest === undefined) {
    // The whole body is here (only bodies are read whole): its length is known, whatever framing the upstream used.
    headers['content-length'] = body.size;
    res.writeHead(status, reason, headers);
    res.end(body.head.length === 1 ? body.head[0] : Buffer.concat(body.head as Buffer[], body.size));
    return undefined;
  }
  res.writeHead(status, reason, headers);
  for (const chunk of body.head) res.write(chunk);
  try {
    await pipeline(body.rest, res);
    return undefined;
  } catch (error) {
    res.destroy();
    return error as Error;
  }
}
