/**
 * Structured logs: pino's NDJSON on stdout, one line per request plus start, shutdown and failures.
 *
 * Two things here are about the cost of the per-request line (docs/benchmarks.md has the figures):
 * - Lines wait for the end of the event-loop turn that logged them and leave in one write. Under
 *   load a turn answers dozens of requests, so one write carries dozens of lines; a quiet mock's
 *   line still leaves within the turn. pino's own destination (sonic-boom) measures the whole
 *   pending text again on every line it buffers.
 * - The request line is written by `requestLogger` directly in the format pino would give it
 *   (a test compares the two), without pino's generic serializer.
 */
import { pino, type Logger } from 'pino';

/** What stdout may hold unwritten while its reader is slow; lines beyond it are dropped and counted. */
const STDOUT_BACKLOG_BYTES = 8 * 1024 * 1024;

/** A file descriptor written without blocking the event loop, holding at most a bounded backlog. */
export type Output = NodeJS.WritableStream;

/**
 * Writes `fd` from libuv's thread pool (pino's sonic-boom, asynchronous), holding at most
 * `backlogBytes` the reader has not taken yet. `process.stdout` on a pipe buffers without bound
 * when its reader stops (a paused terminal, a stalled log collector) and drops that buffer at
 * `process.exit`; this drops the lines beyond the bound instead, says how many once the reader
 * catches up, and writes what it holds synchronously at exit (pino's destination does that).
 */
export function boundedOutput(fd: number, backlogBytes: number): Output {
  const destination = pino.destination({ dest: fd, sync: false, maxLength: backlogBytes });
  let dropped = 0;
  destination.on('drop', () => {
    dropped++;
  });
  destination.on('drain', () => {
    if (dropped === 0) return;
    const count = dropped;
    dropped = 0;
    destination.write(`${JSON.stringify({ level: 40, time: Date.now(), dropped: count, msg: 'log writes dropped: the output was not read fast enough' })}\n`);
  });
  // An output that cannot be written (closed, EBADF) has no one left to tell; pino's destination
  // already stops writing on EPIPE.
  destination.on('error', () => {});
  return destination as unknown as Output;
}

/** The process's one stdout writer, made on first use. */
let stdout: Output | undefined;
const processStdout = (): Output => (stdout ??= boundedOutput(1, STDOUT_BACKLOG_BYTES));

/** A pino destination: the lines of one event-loop turn, written to stdout together. */
export class LoopTurnLines {
  #lines: string[] = [];
  #scheduled = false;

  constructor(private readonly out: NodeJS.WritableStream = processStdout()) {}

  write(line: string): boolean {
    if (this.#lines.push(line) === 1) {
      waitingAtExit.add(this);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#release);
      }
    }
    return true;
  }

  /** Hands the waiting lines to stdout now (pino's `logger.flush()`). */
  flush(callback?: (error?: Error) => void): void {
    this.#release();
    callback?.();
  }

  /** Writes the waiting lines before the process ends, when no later turn will. */
  flushSync(): void {
    if (this.#lines.length === 0) return;
    const text = this.#take();
    try {
      // stdout's writer writes what it holds synchronously at exit, after this.
      this.out.write(text);
    } catch {
      // stdout is closed or would block at exit: these lines cannot be written, the exit goes on.
    }
  }

  #release = (): void => {
    this.#scheduled = false;
    if (this.#lines.length) this.out.write(this.#take());
  };

  #take(): string {
    waitingAtExit.delete(this);
    const text = this.#lines.join('');
    this.#lines = [];
    return text;
  }
}

/** Destinations holding lines: written synchronously if the process exits before their turn ends. */
const waitingAtExit = new Set<LoopTurnLines>();
process.on('exit', () => {
  for (const destination of waitingAtExit) destination.flushSync();
});

/** The loggers this module made, with the destination their request lines go to directly. */
const plainLoggers = new WeakMap<Logger, LoopTurnLines>();

export function createLogger(level: string, out?: NodeJS.WritableStream): Logger {
  const destination = new LoopTurnLines(out);
  const logger = pino({ level, base: undefined }, destination);
  plainLoggers.set(logger, destination);
  return logger;
}

/**
 * Logs `listening on URL` whatever the level: scripts and tools wait for this line (at `warn` or
 * `silent` it is the only line), so it is written in pino's format even when info is muted, and
 * handed to stdout at once rather than at the end of the loop turn.
 */
export function logListening(logger: Logger, url: string): void {
  const msg = `listening on ${url}`;
  if (logger.isLevelEnabled('info')) logger.info({ url }, msg);
  else (plainLoggers.get(logger) ?? process.stdout).write(`${JSON.stringify({ level: INFO, time: Date.now(), url, msg })}\n`);
  logger.flush();
}

/** What the per-request line says. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  /** The catalogue code of a rejection. */
  code: string | undefined;
}

const INFO = 30;
const DEBUG = 20;

/**
 * The function that logs one request: at info level, or debug for `quiet` ones (the inspector's
 * polling). For a logger from `createLogger` the line is built here; any other pino logger (one
 * a caller configured itself) gets `logger.info(entry, 'request')`.
 */
export function requestLogger(logger: Logger): (entry: RequestLogEntry, quiet: boolean) => void {
  const destination = plainLoggers.get(logger);
  if (!destination) return (entry, quiet) => logger[quiet ? 'debug' : 'info'](entry, 'request');
  return (entry, quiet) => {
    const level = quiet ? DEBUG : INFO;
    if (logger.levelVal > level) return;
    const code = entry.code === undefined ? '' : `,"code":${JSON.stringify(entry.code)}`;
    destination.write(
      `{"level":${level},"time":${Date.now()},"method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)},` +
        `"status":${entry.status},"ms":${entry.ms}${code},"msg":"request"}\n`,
    );
  };
}
