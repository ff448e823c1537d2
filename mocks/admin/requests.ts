/**
 * `/__mock/requests`: the journal over HTTP. A listing (newest first, summaries without the
 * bodies' text, filtered and paged: `?after=&before=&limit=&status=4xx,5xx&path=&q=`), one entry
 * whole (`/__mock/requests/{seq}`), a reset (DELETE), and the export of what frontends sent as a
 * contract case file (`?format=cases`, see cases.ts).
 */
import { reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { parameterProblems, quote } from './query.js';
import { MAX_JOURNAL_PAGE, STATUS_CLASSES, type JournalQuery, type RequestJournal, type StatusClass } from './journal.js';

export const REQUESTS_ROUTE = '/__mock/requests';

const LISTING_PARAMETERS = ['after', 'before', 'limit', 'status', 'path', 'q', 'whole', 'format'] as const;
const FORMATS = ['journal', 'cases'] as const;
export type RequestsFormat = (typeof FORMATS)[number];

/** The journal query of a request's search parameters, or the 400 naming each problem. */
export function parseJournalQuery(search: URLSearchParams): { query: JournalQuery; format: RequestsFormat } | Rejection {
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
  return problems.rejection(REQUESTS_ROUTE) ?? { query, format: format as RequestsFormat };
}

/** The listing answer: `{entries, last, more, journal}` and, when older entries match, a Link to them. */
export async function journalListing(journal: RequestJournal, query: JournalQuery, search: URLSearchParams): Promise<Answer> {
  const [page, stats] = await Promise.all([journal.entries(query), journal.stats()]);
  const answer: Answer = { status: 200, body: JSON.stringify({ ...page, journal: stats }), headers: { 'cache-control': 'no-store' } };
  const oldest = page.entries.at(-1);
  if (page.more && oldest) {
    const next = new URLSearchParams(search);
    next.delete('after');
    next.set('before', String(oldest.seq));
    (answer.headers as Record<string, string>).link = `<${REQUESTS_ROUTE}?${next.toString()}>; rel="next"`;
  }
  return answer;
}

/** One whole entry, or the 404 saying it has left the journal. */
export async function journalEntry(journal: RequestJournal, seq: number): Promise<Answer> {
  const entry = await journal.entry(seq);
  if (!entry) return rejected(reject('JOURNAL_ENTRY_NOT_FOUND', { seq }));
  return { status: 200, body: JSON.stringify(entry), headers: { 'cache-control': 'no-store' } };
}
