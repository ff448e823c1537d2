/** Putting a decided answer on the wire, and answering what Node's parser refused. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { errorBody, reject, type Rejection } from '../errors.js';
import type { Answer } from './answer.js';

/**
 * Writes `answer`; `close`: the connection closes after it (the edge decides, see connections.ts).
 * Returns the headers it was written with (for the journal).
 */
export function respond(res: ServerResponse, answer: Answer, cors: Readonly<Record<string, string>>, close = false): Record<string, string | number> {
  // One writeHead with every header: each setHeader before it costs more than the answer's JSON.
  const headers: Record<string, string | number> = answer.headers ? { ...cors, ...answer.headers } : { ...cors };
  if (close) headers.connection = 'close';
  else if (headers.connection !== undefined) delete headers.connection;
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return headers;
  }
  headers['content-type'] = answer.headers?.['content-type'] ?? 'application/json';
  headers['content-length'] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
  // A body we refused to read is not drained: close instead of reading it to the end.
  if (close) res.once('finish', () => res.socket?.destroySoon());
  return headers;
}

/**
 * The answer to bytes Node's parser refused, as raw HTTP/1.1 that closes the connection (there
 * is no request, so no ServerResponse); undefined when nobody is left to answer.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string | undefined {
  if (error.code === 'ECONNRESET') return undefined;
  const rejection: Rejection =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? reject('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? reject('REQUEST_TIMEOUT')
        : reject('MALFORMED_HTTP', { detail: error.code ?? error.message });
  return rawAnswer(rejection);
}

/** A rejection as raw HTTP/1.1 that closes the connection, for where Node gives us only the socket. */
export function rawAnswer(rejection: Rejection, headers: Readonly<Record<string, string>> = {}): string {
  const body = errorBody(rejection);
  let head = `HTTP/1.1 ${rejection.status} ${STATUS_CODES[rejection.status]}\r\n`;
  for (const [name, value] of Object.entries({ ...headers, ...rejection.headers })) head += `${name}: ${value}\r\n`;
  return `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * The path of a request target, without its query; for an absolute-form target
 * (`http://host/plants`, RFC 9112 §3.2.2) the path after its authority.
 */
export function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* / */) {
    const scheme = url.indexOf('://');
    // Asterisk-form (OPTIONS *), authority-form or nonsense: matches no route; its query is dropped all the same.
    if (scheme === -1) return url.indexOf('?') === -1 ? url : url.slice(0, url.indexOf('?'));
    start = url.indexOf('/', scheme + 3);
    if (start === -1) return '/';
  }
  const query = url.indexOf('?', start);
  return query === -1 ? (start === 0 ? url : url.slice(start)) : url.slice(start, query);
}
