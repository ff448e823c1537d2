/**
 * Structured logs (pino), one line per request. Writes are asynchronous: under load sonic-boom
 * coalesces the lines queued while a write is in flight, so logging stays off the hot path.
 * Lines are handed to the OS in 4 KiB batches, or within 100 ms when fewer arrive: one write per
 * line or two showed in the CPU profile under load (each async write wakes a libuv thread).
 */
import { pino, type Logger } from 'pino';

/** The longest a log line waits in the buffer when the mock is quiet. */
export const LOG_FLUSH_MS = 100;

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
  // Buffered lines must reach stdout even when the process ends right after them.
  process.once('exit', () => destination.flushSync());
  return pino({ level, base: undefined }, destination);
}
