/**
 * `/__mock/requests`: the journal over HTTP. A listing (newest first, summaries without the
 * bodies' text, filtered and paged: `?after=&before=&limit=&status=4xx,5xx&path=&q=`; with `&wait=S`
 * it waits up to S seconds for an entry after `after`, journal-wait.ts), one entry
 * whole (`/__mock/requests/{seq}`), a reset (DELETE), and the export of what frontends sent as a
 * contract case file (`?format=cases`, see cases.ts).
 */
import { reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { parameterProblems, quote } from './query.js';
import type { Socket } from 'node:net';
import { MAX_WAIT_SECONDS, RELOADS_HEADER, WAIT_HEADER, type JournalWaits } from './journal-wait.js';
import { MAX_JOURNAL_PAGE, STATUS_CLASSES, type JournalQuery, type JournalSelection, type JournalStats, type RequestJournal, type StatusClass } from './journal.js';

export const REQUESTS_ROUTE = '/__mock/requests';

const LISTING_PARAMETERS = ['after', 'before', 'limit', 'status', 'path', 'q', 'whole', 'format', 'wait', 'reloads'] as const;
const FORMATS = ['journal', 'cases'] as const;
export type RequestsFormat = (typeof FORMATS)[number];

/** The journal query of a request's search parameters, or the 400 naming each problem. */
export function parseJournalQuery(search: URLSearchParams): { query: JournalQuery; format: RequestsFormat; waitMs?: number; reloads?: number } | Rejection {
  const problems = parameterProblems(search, LISTING_PARAMETERS, LISTING_PARAMETERS.join(', '));
  const query: JournalQuery = {};
  const seq = (name: 'after' | 'before'): void => {
    const raw = search.get(name);
    if (raw === null) return;
    if (/^\d{1,15}$/.test(raw)) query[name] = Number(raw);
    else problems.add(`${name} must be the seq of a journal entry (a whole number), got ${quote(raw)}`);
  };
  seq('after');
  seq('before');
  const limit = search.get('limit');
  if (limit !== null) {
    const value = /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (value >= 1 && value <= MAX_JOURNAL_PAGE) query.limit = value;
    else problems.add(`limit must be a whole number from 1 to ${MAX_JOURNAL_PAGE}, got ${quote(limit)}`);
  }
  const status = search.get('status');
  if (status !== null) {
    const classes = status.split(',').map((part) => part.trim().toLowerCase());
    const unknown = classes.filter((c) => !(STATUS_CLASSES as readonly string[]).includes(c));
    if (unknown.length) problems.add(`status must list status classes (${STATUS_CLASSES.join(', ')}), got ${quote(status)}`);
    else query.status = classes as StatusClass[];
  }
  const path = search.get('path');
  if (path !== null && path !== '') query.path = path;
  const text = search.get('q');
  if (text !== null && text !== '') query.text = text;
  const whole = search.get('whole');
  if (whole !== null) {
    if (whole === 'true' || whole === 'false') query.whole = whole === 'true';
    else problems.add(`whole must be true or false, got ${quote(whole)}`);
  }
  const format = search.get('format') ?? 'journal';
  if (!(FORMATS as readonly string[]).includes(format)) problems.add(`format must be one of ${FORMATS.join(', ')}, got ${quote(format)}`);
  const wait = search.get('wait');
  let waitMs: number | undefined;
  if (wait !== null) {
    const seconds = /^\d{1,2}$/.test(wait) ? Number(wait) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_WAIT_SECONDS)) problems.add(`wait must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}, got ${quote(wait)}`);
    else if (query.after === undefined || query.before !== undefined || format !== 'journal')
      problems.add('wait waits for entries after a cursor: it needs after (the last seq seen), and takes neither before nor format=cases');
    else waitMs = seconds * 1000;
  }
  const reloads = search.get('reloads');
  if (reloads !== null && !/^\d{1,15}$/.test(reloads)) problems.add(`reloads must be the spec's reload count the client saw (X-Mock-Spec-Reloads), got ${quote(reloads)}`);
  else if (reloads !== null && wait === null) problems.add('reloads goes with wait: it ends the wait at once when the spec was reloaded since');
  return problems.rejection(REQUESTS_ROUTE) ?? { query, format: format as RequestsFormat, ...(waitMs === undefined ? {} : { waitMs }), ...(reloads === null ? {} : { reloads: Number(reloads) }) };
}

/**
 * The listing after a wait for entries past `query.after` (journal-wait.ts): the listing is read
 * once the wait ends, whatever ended it, and says so in its WAIT_HEADER.
 */
export async function waitedListing(
  journal: RequestJournal,
  waits: JournalWaits,
  query: JournalQuery,
  search: URLSearchParams,
  { waitMs, reloads, socket }: { waitMs: number; reloads?: number; socket?: Socket },
): Promise<Answer> {
  const after = query.after as number;
  // News is any entry after the cursor, filtered out or not: the page's cursor moves on with `last`.
  const hasNews = async (): Promise<boolean> => (await journal.select({ after, limit: 1 })).last !== after;
  const outcome = await waits.wait(journal, waitMs, hasNews, { reloads, socket });
  const answer = await journalListing(journal, query, search);
  return { ...answer, headers: { ...answer.headers, [WAIT_HEADER]: outcome, [RELOADS_HEADER]: String(waits.reloads) } };
}

/** Entries fetched from the journal per piece of a listing. */
const TEXTS_PER_READ = 8;
/** Summaries are small: they go out together, in pieces of about this many characters. */
const PIECE_CHARS = 32 * 1024;

/**
 * The listing answer: `{entries, last, more, journal}` and, when older entries match, a Link to
 * them. The page is chosen first (its seqs), then written an entry at a time as the client takes
 * it (http/stream.ts): a client that never reads holds one piece, not the page (up to 1 000 whole
 * entries, megabytes each time it is asked).
 */
export async function journalListing(journal: RequestJournal, query: JournalQuery, search: URLSearchParams): Promise<Answer> {
  const [selection, stats] = await Promise.all([journal.select(query), journal.stats()]);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  const oldest = selection.seqs.at(-1);
  if (selection.more && oldest !== undefined) {
    const next = new URLSearchParams(search);
    next.delete('after');
    next.set('before', String(oldest));
    headers.link = `<${REQUESTS_ROUTE}?${next.toString()}>; rel="next"`;
  }
  return { status: 200, headers, stream: listingPieces(journal, selection, query.whole ?? false, stats) };
}

async function* listingPieces(journal: RequestJournal, { seqs, last, more }: JournalSelection, whole: boolean, stats: JournalStats): AsyncGenerator<string> {
  let piece = '{"entries":[';
  let first = true;
  // A whole entry is masked and written as it is read (up to two bodies of 64 KiB): one a piece, so a piece is one entry's work.
  const perRead = whole ? 1 : TEXTS_PER_READ;
  for (let start = 0; start < seqs.length; start += perRead) {
    // Entries that left the journal since the page was chosen are left out.
    for (const text of await journal.texts(seqs.slice(start, start + perRead), whole)) {
      piece += first ? text : `,${text}`;
      first = false;
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
    }
  }
  yield `${piece}],"last":${last},"more":${more},"journal":${JSON.stringify(stats)}}`;
}

/** One whole entry, or the 404 saying it has left the journal. */
export async function journalEntry(journal: RequestJournal, seq: number): Promise<Answer> {
  const entry = await journal.entry(seq);
  if (!entry) return rejected(reject('JOURNAL_ENTRY_NOT_FOUND', { seq }));
  return { status: 200, body: JSON.stringify(entry), headers: { 'cache-control': 'no-store' } };
}
