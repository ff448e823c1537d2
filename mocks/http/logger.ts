/**
 * Structured logs: pino's NDJSON on stdout, one line per request plus start, shutdown and failures.
 *
 * Two things here are about the cost of the per-request line (docs/benchmarks.md, "Figures behind
 * the code", has the figures):
 * - Lines wait, at most LINE_WAIT_MS after the first of them or until LINE_BATCH_CHARS are
 *   waiting, and leave in one write. Under load one write then carries hundreds of lines rather
 *   than the few of one event-loop turn, and the mock answers more requests a second; a person
 *   reading a quiet mock's log never sees the wait. pino's own destination (sonic-boom) measures
 *   the whole pending text again on every line it buffers.
 * - The request line is written by `requestLogger` directly in the format pino would give it
 *   (a test compares the two), without pino's generic serializer.
 *
 * When stdout is a terminal, a person reads it: the same lines go through pino-pretty
 * (`[12:00:01.234] INFO: request GET /plants 200 1 ms`), loaded only then, so a pipe, docker or a
 * collector gets the JSON lines at the same cost as before.
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';

/** What stdout may hold unwritten while its reader is slow; writes beyond it are dropped and counted. */
const STDOUT_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * A stream whose unwritten backlog is bounded. `process.stdout` on a pipe takes every write and
 * buffers without bound when its reader stops (a paused `docker logs`, a stalled collector): this
 * drops a write that would take the backlog past `backlogBytes`, and once the reader has caught up
 * says in one warn line how many it dropped.
 */
export class BoundedOutput {
  #dropped = 0;

  constructor(
    private readonly out: NodeJS.WritableStream & { readonly writableLength: number },
    private readonly backlogBytes: number,
  ) {}

  write(text: string): boolean {
    // Characters, not bytes: measuring bytes would cost a pass over every line for an approximate bound.
    if (this.out.writableLength + text.length <= this.backlogBytes) return this.out.write(text);
    // The stream is past its high-water mark, so it will say 'drain' once its reader has caught up.
    if (this.#dropped++ === 0) this.out.once('drain', this.#tellDropped);
    return false;
  }

  /** Writes `text` now, without waiting for the backlog: the process is about to exit. */
  writeNow(text: string): void {
    if (this.out === process.stdout) writeSync(1, text);
    else this.out.write(text);
  }

  /** Resolves once the backlog is written, or after `ms` (a reader that never reads must not hold an exit). */
  drained(ms: number): Promise<void> {
    if (this.out.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const out = this.out;
      function done(): void {
        clearTimeout(timer);
        out.off('drain', done);
        resolve();
      }
      out.once('drain', done);
    });
  }

  #tellDropped = (): void => {
    const count = this.#dropped;
    this.#dropped = 0;
    this.out.write(`${JSON.stringify({ level: 40, time: Date.now(), dropped: count, msg: 'log writes dropped: the output was not read fast enough' })}\n`);
  };
}

/** The process's stdout as the loggers write it, made on first use: one backlog, as there is one stdout. */
let stdout: BoundedOutput | undefined;
const processStdout = (): BoundedOutput => (stdout ??= new BoundedOutput(process.stdout, STDOUT_BACKLOG_BYTES));

/** Resolves once stdout's backlog is written, or after `ms`: for a graceful exit. */
export const stdoutDrained = (ms: number): Promise<void> => stdout?.drained(ms) ?? Promise.resolve();

/** How long a line waits for others to share its write. */
export const LINE_WAIT_MS = 10;
/** How many characters of lines wait at most: a bound on the memory they hold under any load. */
export const LINE_BATCH_CHARS = 16 * 1024;

/** A pino destination: lines written to stdout together, LINE_WAIT_MS after the first of them or once LINE_BATCH_CHARS wait. */
export class LineBatch {
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: Pick<NodeJS.WritableStream, 'write'> | BoundedOutput = processStdout(),
    /** What a turn's lines become before they are written (readable lines for a terminal). */
    private readonly format?: (lines: string) => string,
  ) {}

  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= LINE_BATCH_CHARS) this.#release();
    else if (this.#timer === undefined) {
      waitingAtExit.add(this);
      // Unreferenced: waiting lines never keep a process alive; the exit handler writes them.
      this.#timer = setTimeout(this.#release, LINE_WAIT_MS).unref();
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
      if (this.out instanceof BoundedOutput) this.out.writeNow(text);
      else this.out.write(text);
    } catch {
      // stdout is closed or would block at exit: these lines cannot be written, the exit goes on.
    }
  }

  #release = (): void => {
    if (this.#lines.length) this.out.write(this.#take());
  };

  #take(): string {
    waitingAtExit.delete(this);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    return this.format ? this.format(text) : text;
  }
}

/** Destinations holding lines: written synchronously if the process exits before their turn ends. */
const waitingAtExit = new Set<LineBatch>();
process.on('exit', () => {
  for (const destination of waitingAtExit) destination.flushSync();
});

/** The loggers this module made, with the destination their request lines go to directly. */
const plainLoggers = new WeakMap<Logger, LineBatch>();

export function createLogger(level: string, out?: NodeJS.WritableStream): Logger {
  const destination = new LineBatch(out, out === undefined && process.stdout.isTTY === true ? readableLinesIfInstalled() : undefined);
  const logger = pino({ level, base: undefined }, destination);
  plainLoggers.set(logger, destination);
  return logger;
}

/** The part of pino-pretty used here (its own types are not imported: the module is loaded only at run time, on a terminal). */
interface PrettyModule {
  prettyFactory(options: { translateTime: string; ignore: string; messageFormat: string }): (line: string) => string;
}

/** readableLines, or JSON lines with one line on stderr saying why when pino-pretty cannot be loaded (an install without it): logs never stop the mock. */
function readableLinesIfInstalled(): ((lines: string) => string) | undefined {
  try {
    return readableLines();
  } catch (error) {
    process.stderr.write(`plant-store-mock: logging JSON lines: pino-pretty cannot be loaded (${(error as Error).message.split('\n')[0]}); run npm ci\n`);
    return undefined;
  }
}

/** pino's JSON lines as a person reads them: time, level, message, the request's method, path, status and time on one line. */
function readableLines(): (lines: string) => string {
  // Required here, not imported: only a terminal's mock loads pino-pretty.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as PrettyModule;
  const pretty = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'method,path,status,ms,code,reason,url',
    messageFormat: '{msg}{if method} {method} {path} {status} {ms} ms{end}{if code} {code}{end}{if reason}: {reason}{end}',
  });
  return (lines) =>
    lines
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => pretty(line))
      .join('');
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
  /** A rejection's reason, when the answer carries no body to say it (the spec declares that status without content). */
  reason?: string;
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
  // Requests mostly repeat the method and path of the one before: their JSON is written once.
  const method = new RepeatedJson();
  const path = new RepeatedJson();
  return (entry, quiet) => {
    const level = quiet ? DEBUG : INFO;
    if (logger.levelVal > level) return;
    const code = `${entry.code === undefined ? '' : `,"code":${JSON.stringify(entry.code)}`}${entry.reason === undefined ? '' : `,"reason":${JSON.stringify(entry.reason)}`}`;
    destination.write(
      `{"level":${level},"time":${Date.now()},"method":${method.of(entry.method)},"path":${path.of(entry.path)},` + `"status":${entry.status},"ms":${entry.ms}${code},"msg":"request"}\n`,
    );
  };
}

/** A string's JSON, remembered for the last string asked. */
class RepeatedJson {
  #text: string | undefined;
  #json = '';

  of(text: string): string {
    if (text !== this.#text) {
      this.#text = text;
      this.#json = JSON.stringify(text);
    }
    return this.#json;
  }
}
