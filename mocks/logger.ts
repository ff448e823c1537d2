/**
 * Structured logs (pino), one line per request. Writes are asynchronous: under load sonic-boom
 * coalesces the lines queued while a write is in flight, so logging stays off the hot path.
 */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false });
  // Buffered lines must reach stdout even when the process ends right after them.
  process.once('exit', () => destination.flushSync());
  return pino({ level, base: undefined }, destination);
}
