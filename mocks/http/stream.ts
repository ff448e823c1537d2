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
  { stallMs = STALL_MS, keep = 0 }: { stallMs?: number; keep?: number } = {},
): Promise<StreamedAnswer> {
  const headers: Record<string, string | number> = { ...cors, ...answer.headers };
  headers['content-type'] = answer.headers?.['content-type'] ?? 'application/json';
  res.writeHead(answer.status, headers);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  const result = (): StreamedAnswer => (keptBytes ? { headers, start: Buffer.concat(kept, keptBytes), bytes } : { headers, bytes });
  for await (const piece of answer.stream) {
    if (res.destroyed) return result();
    bytes += Buffer.byteLength(piece);
    if (keptBytes < keep) {
      // At most as many characters as bytes are wanted (each is one byte or more), encoded anew: nothing of the piece stays reachable.
      const part = Buffer.from(piece.slice(0, keep - keptBytes)).subarray(0, keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (!res.write(piece) && !(await drained(res, stallMs))) {
      res.destroy();
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
