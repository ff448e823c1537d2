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

/** Writes a streamed answer; resolves with the headers it was written with once it is sent or abandoned. */
export async function respondStream(
  res: ServerResponse,
  answer: Answer & { stream: Iterable<string> | AsyncIterable<string> },
  cors: Readonly<Record<string, string>>,
  stallMs: number = STALL_MS,
): Promise<Record<string, string | number>> {
  const headers: Record<string, string | number> = { ...cors, ...answer.headers };
  headers['content-type'] = answer.headers?.['content-type'] ?? 'application/json';
  res.writeHead(answer.status, headers);
  for await (const piece of answer.stream) {
    if (res.destroyed) return headers;
    if (!res.write(piece) && !(await drained(res, stallMs))) {
      res.destroy();
      return headers;
    }
    await nextTurn();
  }
  if (!res.destroyed) res.end();
  return headers;
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
