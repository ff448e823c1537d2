/**
 * Which header fields cross the proxy, each way. Fields that belong to one connection rather than
 * to the message (RFC 9110 §7.6.1) are removed — Connection and every field it names, and the
 * fields known to need it — and the proxy adds what a gateway must (Via, §7.6.3). Everything
 * else passes unchanged; names arrive lower case from Node's parser (they are case-insensitive).
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/** Fields removed in both directions whether or not Connection names them (RFC 9110 §7.6.1, §11.7). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
  // Trailers are not passed on, so neither is the field announcing them.
  'trailer',
  // Credentials for a proxy are for the proxy; there is none between the mock and the upstream.
  'proxy-authorization',
  'proxy-authenticate',
]);

/** Request fields the mock consumed itself: Host names the upstream instead, and Node answered any Expect. */
const CONSUMED_REQUEST = new Set(['host', 'expect']);

/** This hop in Via: `1.1 plant-store-mock-<instance>`, the instance telling a loop back to this mock from a chain of mocks. */
export function viaOf(instance: string): string {
  return `1.1 plant-store-mock-${instance}`;
}

/** Each field of `message` that is not hop-by-hop, values as received (repeated fields stay repeated). */
function endToEnd(message: IncomingMessage, drop: (name: string) => boolean): Record<string, string | string[]> {
  const named = new Set<string>();
  for (const value of message.headersDistinct.connection ?? []) {
    for (const option of value.split(',')) named.add(option.trim().toLowerCase());
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(message.headersDistinct)) {
    if (values === undefined || HOP_BY_HOP.has(name) || named.has(name) || drop(name)) continue;
    // A field sent once stays a string: Node frames a body by a string Content-Length only.
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

/**
 * The fields to send upstream for a client's request: its end-to-end fields, Via appended, and
 * Forwarded (RFC 7239) saying whom the request came from and which Host it named. `basic` is the
 * upstream URL's credentials, used only when the request brings no Authorization.
 */
export function upstreamRequestHeaders(req: IncomingMessage, basic: string | undefined, via: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = endToEnd(req, (name) => CONSUMED_REQUEST.has(name));
  // Both are lists (RFC 9110 §5.3): this hop's element goes after those of earlier hops.
  headers.via = [...(req.headersDistinct.via ?? []), via].join(', ');
  const from = req.socket.remoteAddress;
  const forwarded = [`for=${from === undefined ? 'unknown' : quotedNode(from)}`, `proto=http`];
  if (req.headers.host) forwarded.push(`host=${JSON.stringify(req.headers.host)}`);
  headers.forwarded = [...(req.headersDistinct.forwarded ?? []), forwarded.join(';')].join(', ');
  if (basic !== undefined && headers.authorization === undefined) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  return headers;
}

/**
 * The fields of the upstream's answer to pass to the client: its end-to-end fields, without the
 * CORS fields (the browser talks to the mock, so CORS is the mock's policy: see `send.ts`).
 */
export function clientResponseHeaders(res: IncomingMessage): Record<string, string | string[]> {
  // A 1xx or 204 has no body and must not say a length (RFC 9110 §8.6); an upstream's is dropped. A 304's stays: it is the cached one's.
  const lengthless = res.statusCode === 204 || (res.statusCode ?? 200) < 200;
  return endToEnd(res, (name) => name.startsWith('access-control-') || (lengthless && name === 'content-length'));
}

/** An address as a Forwarded node (RFC 7239 §6): IPv6 in brackets and quotes. */
function quotedNode(address: string): string {
  return address.includes(':') ? `"[${address}]"` : address;
}
