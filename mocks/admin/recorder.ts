/**
 * `--record DIR`: every distinct exchange as a contract case, in one case file per run in DIR (the
 * fixture format, fixtures/fixture-file.schema.json), so that what frontends send — and, in proxy
 * mode, how the real service answers — becomes `npm run contract -- --cases DIR`.
 *
 * The cases are made by the export's CaseCollector (cases.ts) from the journal's record of each
 * exchange, masked and cut as the journal keeps it, so a credential never reaches the file; an
 * exchange whose case would quote its own credential anyway (a token in the body) is left out.
 * Bounded: repeats are dropped (same request, same expectation), and the file stops growing at
 * `maxCases` cases or `maxBytes` bytes (what comes after is counted in its description). The file
 * is rewritten whole and atomically (a temporary file in DIR, flushed, then renamed over it), within
 * FLUSH_MS of a new case (at most once per FLUSH_MS) and once more when the mock stops, so a reader
 * never sees half a file and a crash loses at most the last FLUSH_MS of cases.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { MockContext } from './context.js';
import { caseFileText, CaseCollector, departuresText, type CaseLimits, type CaseSource } from './cases.js';
import { requestCredentials, type JournalPolicy } from './exchange.js';
import { isPendingRecord, type JournalEntry, type JournalRecord, type PendingRecord } from './journal.js';

export interface RecordOptions extends Partial<CaseLimits> {
  /** The directory the run's case file is written to (made when missing). */
  dir: string;
}

/** The bounds of one run's file: as many cases as the journal keeps entries, and its bytes. */
export const DEFAULT_RECORD_LIMITS: CaseLimits = { maxCases: 500, maxBytes: 8 * 1024 * 1024 };
/** Changes are written at most this often (and when the mock stops). */
const FLUSH_MS = 1000;

/** A directory the mock cannot record into; the CLI exits 1 with the message. */
export class RecordError extends Error {
  override name = 'RecordError';
}

export class CaseRecorder {
  /** The file of this run. */
  readonly path: string;
  readonly #dir: string;
  readonly #collector: CaseCollector;
  readonly #context: MockContext;
  readonly #logger: Logger;
  readonly #started = new Date();
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  #closed = false;
  #lastFailure: string | undefined;

  /** Opens a recording in `options.dir`; throws RecordError when the directory cannot be written. */
  constructor(options: RecordOptions, context: MockContext, logger: Logger) {
    this.#dir = resolve(options.dir);
    try {
      if (!existsSync(this.#dir)) mkdirSync(this.#dir, { recursive: true });
      if (!statSync(this.#dir).isDirectory()) throw new Error('it is not a directory');
      accessSync(this.#dir, constants.W_OK);
    } catch (error) {
      throw new RecordError(`Cannot record into ${options.dir}: ${(error as Error).message}`);
    }
    // The run in the names: files of several runs (or replicas) in one directory load together.
    const stamp = this.#started.toISOString().replace(/[-:]|\.\d+/g, '');
    const run = `${stamp}-${randomBytes(3).toString('hex')}`;
    this.path = join(this.#dir, `recorded-${run}.json`);
    const source: CaseSource = {
      namePrefix: `recorded-${run.toLowerCase()}`,
      where: (entry) => `recording ${basename(this.path)}, exchange #${entry.seq}, ${entry.at}`,
    };
    this.#collector = new CaseCollector(source, { ...DEFAULT_RECORD_LIMITS, ...definedLimits(options) });
    this.#context = context;
    this.#logger = logger;
  }

  /** Takes one exchange, as the journal got it. Never waits and never throws: the answer has left. */
  record(record: JournalRecord | PendingRecord, req: IncomingMessage, policy: JournalPolicy): void {
    if (this.#closed) return;
    try {
      const seq = ++this.#seq;
      if (this.#collector.full) {
        this.#collector.skipUnseen();
        return;
      }
      const { time, ...rest } = isPendingRecord(record) ? record.toRecord() : record;
      const entry: JournalEntry = { seq, at: new Date(time).toISOString(), ...rest };
      if (this.#collector.add(entry, this.#context, requestSecrets(req, policy))) this.#changed();
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Writes what is left to write; the recording takes nothing after. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    // Once more in any case: the description's end time and its counts of what was left out.
    this.#dirty = true;
    await this.#flush();
    const count = this.#collector.cases.length;
    if (count) this.#logger.info({ file: this.path, cases: count }, `recorded ${count} contract case${count === 1 ? '' : 's'} in ${this.path}`);
    else this.#logger.info({ dir: this.#dir }, `nothing recorded: no request could be a contract case (${this.#collector.leftOut() || 'none was sent'})`);
  }

  /** The file's text as it would be written now, or undefined while no case is recorded. */
  #text(): string | undefined {
    const { cases } = this.#collector;
    if (!cases.length) return undefined;
    const { engine, proxy } = this.#context;
    const left = this.#collector.leftOut();
    const what = proxy ? `Exchanges through the ${engine.contract.title} mock in front of ${proxy.upstream.display}` : `Requests frontends sent to the ${engine.contract.title} mock`;
    const description =
      `${what}, recorded from ${this.#started.toISOString()} to ${new Date().toISOString()}: ` +
      `${cases.length} distinct request${cases.length === 1 ? '' : 's'}, each expected to get what the contract says of it` +
      (proxy ? " (the upstream's answers decided only whether a well-formed credential is valid)." : '.') +
      departuresText(this.#collector) +
      (left ? ` Left out: ${left}.` : '');
    return caseFileText({ description, cases });
  }

  /** A new case: written within FLUSH_MS (counts of what was left out are written with the next case, and at close). */
  #changed(): void {
    this.#dirty = true;
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush().catch((error: unknown) => this.#fail(error));
    }, FLUSH_MS);
    this.#timer.unref();
  }

  /** One write at a time; a change made while writing is written by the next. Never rejects: a rejected chain would stop every later write. */
  #flush(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      try {
        const text = this.#text();
        if (text === undefined) return;
        await writeAtomically(this.path, text);
        this.#lastFailure = undefined;
      } catch (error) {
        this.#dirty = true; // tried again with the next change, and at close
        this.#fail(error);
      }
    });
    return this.#writing;
  }

  /** Logged once per distinct failure: a full disk must not flood the log. */
  #fail(error: unknown): void {
    const message = (error as Error)?.message ?? String(error);
    if (message === this.#lastFailure) return;
    this.#lastFailure = message;
    this.#logger.error({ err: error, file: this.path }, `could not record into ${this.path}: ${message}`);
  }
}

const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Writes `text` to `path` so that a reader sees the old file or the new one, never a part. */
async function writeAtomically(path: string, text: string): Promise<void> {
  // A dot file not ending in .json: a directory loaded with --cases never reads it.
  // A name nobody can guess, created new (O_EXCL) and never through a symlink (O_NOFOLLOW): a link
  // planted at a predictable name would have made the mock overwrite the file it points to.
  const temporary = join(resolve(path, '..'), `.${basename(path)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, NEW_FILE_FLAGS, 0o644);
    try {
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The credentials a case may not quote: those the mock knows and those the request carried (exchange.ts). */
function requestSecrets(req: IncomingMessage, policy: JournalPolicy): string[] {
  return [...policy.credentials.secrets.list, ...requestCredentials(req.rawHeaders, req.url, policy.credentials)];
}

function definedLimits(options: RecordOptions): Partial<CaseLimits> {
  return {
    ...(options.maxCases === undefined ? {} : { maxCases: options.maxCases }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  };
}
