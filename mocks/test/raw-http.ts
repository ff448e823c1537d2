/**
 * Raw HTTP/1.1 over `node:net`, for what fetch cannot express: pipelining, malformed bytes, a
 * foreign or missing Host, absolute-form targets, CONNECT, Expect. Every exchange is bounded.
 */
import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as text. */
  text: string;
  /** Whether the server closed the connection (false: we gave up waiting after `waitMs`). */
  closedByServer: boolean;
  /** Status codes in the order they arrived (interim 1xx included). */
  statuses: number[];
}

/**
 * Writes `pieces` to one connection to `url` (pausing `pauseMs` between them) and collects what
 * comes back until the server closes the connection, `until` says enough, or `waitMs` passes (a safety
 * limit for a machine ten times slower: every caller ends the exchange by `until` or by the server closing).
 */
export function rawExchange(
  url: string,
  pieces: readonly (string | Buffer)[],
  { pauseMs = 0, waitMs = 60_000, until }: { pauseMs?: number; waitMs?: number; until?: (text: string) => boolean } = {},
): Promise<RawExchange> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, fail) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    let text = '';
    let closedByServer = false;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedByServer, statuses: statusesOf(text) });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (until?.(text)) finish();
    });
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? finish() : fail(error)));
    void (async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    })();
  });
}

/** The statuses of a stream of HTTP/1.1 answers, in order (interim 1xx included). */
export function statusesOf(text: string): number[] {
  return answersOf(text).map((answer) => answer.status);
}

/** The answers of a stream, each as its status, lower-cased headers and body (Content-Length framed). */
export function answersOf(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const answers = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine?.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

/** A request with a JSON body, as bytes on the wire. */
export function rawRequest(
  target: string,
  { method = 'POST', host = 'localhost', headers = {}, body }: { method?: string; host?: string | null; headers?: Record<string, string>; body?: string } = {},
): string {
  const lines = [`${method} ${target} HTTP/1.1`];
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}
