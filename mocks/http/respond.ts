/** Putting a decided answer on the wire, and answering what Node's parser refused. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, reject, type Rejection } from '../errors.js';
import type { Answer } from './answer.js';

/** Writes the answer; returns the headers it was written with (for the journal). */
export function respond(res: ServerResponse, answer: Answer, cors: Readonly<Record<string, string>>): Record<string, string | number> {
  // One writeHead with every header: each setHeader before it costs more than the answer's JSON.
  const headers: Record<string, string | number> = answer.headers ? { ...cors, ...answer.headers } : { ...cors };
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
  if (answer.headers?.connection === 'close') res.once('finish', () => res.socket?.destroySoon());
  return headers;
}

/** Requests Node cannot parse still get an answer in the Error shape, then the connection closes. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const rejection: Rejection =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? reject('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? reject('REQUEST_TIMEOUT')
        : reject('MALFORMED_HTTP', { detail: error.code ?? error.message });
  const body = errorBody(rejection);
  socket.end(
    `HTTP/1.1 ${rejection.status} ${STATUS_CODES[rejection.status]}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}


/** The path of a request target, without its query. */
export function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
