/**
 * What the mock owes each connection: every request it acted on gets its answer, in order, before
 * the connection closes.
 *
 * Node writes the answers of pipelined requests in order, but three things can cut that short:
 * - bytes its parser refuses after a request: the refusal is written straight to the socket and
 *   would overtake (and close before) the answers still being decided;
 * - an answer that closes the connection (a refused body left unread, or shutting down) while a
 *   later request on it was already taken: Node drops the answers queued after a closing one;
 * - a request parsed after such a closing answer: acted on, never answered.
 * So a refusal waits for the answers before it, only the latest request's answer may close a
 * connection, and a request that arrives once its connection is closing is not acted on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Open connections at most, by default: far more than the browsers and test runners of a team
 * open (a browser keeps 6 per origin), and below the usual open-file limits of a server.
 */
export const DEFAULT_MAX_CONNECTIONS = 1000;

interface Connection {
  readonly socket: Socket;
  /**
   * Responses of the requests taken on this connection, oldest first, from the oldest not yet
   * written (Node writes them in this order). The last is the latest request's.
   */
  readonly responses: ServerResponse[];
  /** An answer closes this connection: later requests are not acted on. */
  closing: boolean;
  /** Malformed bytes were answered or are waiting to be: the parser has stopped. */
  refused: boolean;
}

export class Connections {
  /** Open connections, oldest first. */
  readonly #open = new Map<Duplex, Connection>();
  #shuttingDown = false;

  /**
   * `maxConnections` (`--max-connections`): beyond it a new connection closes the oldest one that
   * is idle (no answer owed); when every one is owed an answer, the new one is closed. Idle
   * connections then never lock new clients out until a timeout frees them (the fd limit once did:
   * docs/security.md, "Idle connections never lock new clients out").
   */
  constructor(readonly maxConnections = Number.POSITIVE_INFINITY) {}

  /** A new connection (the server's `connection` event). */
  opened(socket: Socket): void {
    if (this.#open.size >= this.maxConnections) {
      const idle = this.#oldestIdle();
      if (idle === undefined) {
        socket.destroy();
        return;
      }
      this.#open.delete(idle.socket);
      idle.socket.destroy();
    }
    this.#open.set(socket, { socket, responses: [], closing: false, refused: false });
    socket.once('close', () => this.#open.delete(socket));
  }

  /** The connection open longest that is owed no answer (its requests all answered, or none taken). */
  #oldestIdle(): Connection | undefined {
    for (const connection of this.#open.values()) if (connection.responses.every(isWritten)) return connection;
    return undefined;
  }

  /**
   * A request was taken on its connection. Returns false when the mock must not act on it: an
   * earlier answer closes the connection, so this one could never be sent.
   */
  taken(req: IncomingMessage, res: ServerResponse): boolean {
    const connection = this.#open.get(req.socket);
    if (connection === undefined) return true;
    const responses = connection.responses;
    while (responses.length && isWritten(responses[0] as ServerResponse)) responses.shift();
    responses.push(res);
    return !connection.closing;
  }

  /**
   * Whether the answer about to be written for `req` closes its connection: when the answer asks
   * to (`wantsClose`, a body refused unread) and the body really is left on the wire, or when the
   * mock is shutting down; in both cases only for the latest request of the connection.
   */
  closesWith(req: IncomingMessage, res: ServerResponse, wantsClose: boolean): boolean {
    const connection = this.#open.get(req.socket);
    if (connection === undefined) return wantsClose || this.#shuttingDown;
    const close = connection.responses.at(-1) === res && ((wantsClose && !req.complete) || this.#shuttingDown);
    if (close) connection.closing = true;
    return close;
  }

  /**
   * Answers bytes the parser refused (`answer`, raw HTTP that closes) once the answers to the
   * requests before them are written. A request whose body had not fully arrived is not waited
   * for: with the parser stopped, it never will, and it is never acted on.
   */
  refuse(socket: Duplex, answer: string | undefined): void {
    const connection = this.#open.get(socket);
    if (answer === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    if (connection === undefined) {
      socket.end(answer);
      return;
    }
    if (connection.refused) return; // the parser reports its error again on later bytes
    connection.refused = true;
    connection.closing = true;
    const waitFor = connection.responses.findLast((res) => res.req.complete && !isWritten(res));
    const send = (): void => {
      if (socket.writable) socket.end(answer);
    };
    if (waitFor === undefined) send();
    else waitFor.once('finish', send).once('close', send);
  }

  /**
   * The server is closing: each connection closes after its latest answer. Those still being
   * decided close through `closesWith`; those already decided close once written.
   */
  shutDown(): void {
    this.#shuttingDown = true;
    for (const connection of this.#open.values()) {
      const latest = connection.responses.at(-1);
      if (connection.closing || latest === undefined || !latest.writableEnded || isWritten(latest)) continue;
      connection.closing = true;
      latest.once('finish', () => connection.socket.end());
    }
  }
}

/** Written to the socket (or never to be). */
function isWritten(res: ServerResponse): boolean {
  return res.writableFinished || res.destroyed;
}
