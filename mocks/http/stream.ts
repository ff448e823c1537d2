/**
 * Answers whose body is written piece by piece (a page of a large listing). Each piece goes out
 * only once the socket has taken the ones before it (backpressure), so a client that stops
 * reading holds one piece of memory, not the whole body; one that reads nothing for `STALL_MS`
 * is disconnected. The loop yields between pieces so other requests (the health check) are
 * answered while a long body is written.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import type { Answer } from './answer.js';

/** How long a client may take nothing of a streamed answer before it is disconnected. */
export const STALL_MS = 30_000;

/** Characters of streamed answers one server makes per loop turn, all its streams together (docs/security.md). */
export const DEFAULT_CHARS_PER_TURN = 256 * 1024;

/**
 * The loop turns one server's streamed answers share. Each stream yields between its pieces, but
 * a piece is made when it is asked for (a journal page reads and masks entries), and 150 streams
 * each making one in the same turn kept a health check waiting seconds. A stream asks for its next
 * piece only while the turn's share is not spent; past it, it waits for a later turn, so a turn
 * makes at most the share and one piece more, however many streams there are.
 */
export class StreamShare {
  readonly charsPerTurn: number;
  #spent = 0;
  #renewing = false;
  /** Characters made in all, for tests to count the work done meanwhile. */
  made = 0;

  constructor(charsPerTurn = DEFAULT_CHARS_PER_TURN) {
    this.charsPerTurn = charsPerTurn;
  }

  /** Resolves once a piece may be made in the current turn. */
  async ready(): Promise<void> {
    // Bounded by the streams ahead: each turn renews the share, and a waiting stream goes after the renewal.
    while (this.#spent >= this.charsPerTurn) await nextTurn();
  }

  /** Counts a piece made in this turn; the share is renewed in the next one. */
  spend(chars: number): void {
    this.#spent += chars;
    this.made += chars;
    if (this.#renewing) return;
    this.#renewing = true;
    setImmediate(() => {
      this.#spent = 0;
      this.#renewing = false;
    });
  }
}

/** What a streamed answer put on the wire, for the journal. */
export interface StreamedAnswer {
  /** The headers it was written with. */
  headers: Record<string, string | number>;
  /** A copy of its first bytes, at most the `keep` asked for; undefined when none were asked for or written. */
  start?: Buffer;
  /** How many bytes of body were written in all. */
  bytes: number;
}

/**
 * Writes a streamed answer; resolves once it is sent or abandoned with what was written, and a
 * copy of at most `keep` bytes of its start (the journal's body bound: never the whole body).
 */
export async function respondStream(
  res: ServerResponse,
  answer: Answer & { stream: Iterable<string> | AsyncIterable<string> },
  cors: Readonly<Record<string, string>>,
  { stallMs = STALL_MS, keep = 0, share = new StreamShare() }: { stallMs?: number; keep?: number; share?: StreamShare } = {},
): Promise<StreamedAnswer> {
  const headers: Record<string, string | number> = { ...cors, ...answer.headers };
  headers['content-type'] = answer.headers?.['content-type'] ?? 'application/json';
  res.writeHead(answer.status, headers);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  const result = (): StreamedAnswer => (keptBytes ? { headers, start: Buffer.concat(kept, keptBytes), bytes } : { headers, bytes });
  const stream = answer.stream;
  const pieces: Iterator<string> | AsyncIterator<string> = Symbol.asyncIterator in stream ? stream[Symbol.asyncIterator]() : stream[Symbol.iterator]();
  for (;;) {
    // The piece is made when asked for: only while this turn's share lasts.
    await share.ready();
    const next = await pieces.next();
    if (next.done) break;
    const piece = next.value;
    share.spend(piece.length);
    if (res.destroyed) {
      await pieces.return?.();
      return result();
    }
    bytes += Buffer.byteLength(piece);
    if (keptBytes < keep) {
      // At most as many characters as bytes are wanted (each is one byte or more), encoded anew: nothing of the piece stays reachable.
      const part = Buffer.from(piece.slice(0, keep - keptBytes)).subarray(0, keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (!res.write(piece) && !(await drained(res, stallMs))) {
      res.destroy();
      await pieces.return?.();
      return result();
    }
    await nextTurn();
  }
  if (!res.destroyed) res.end();
  return result();
}

/** Resolves true once the socket has taken what was written, false when it closes or stalls. */
function drained(res: ServerResponse, stallMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    const timer = setTimeout(() => done(false), stallMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
