/**
 * `GET /__mock/requests?format=cases`: the distinct requests frontends sent to the spec's
 * operations, as a case file in the fixture format (fixtures/fixture-file.schema.json), so that
 * `npm run contract -- --cases FILE` runs the frontends' real request shapes against a provider.
 *
 * Each case's expectation is the mock's verdict (accepted, rejected-body, unauthenticated,
 * unsupported-media-type); the id is replaced by a fresh-id placeholder of the same kind (so a
 * case can run twice); credentials are never copied: the case says which kind of credential
 * was sent (the provider's, none, one it never issued, another scheme; the scheme it went by where
 * the operation takes several) and the suite supplies it, where that scheme puts it (an API key in
 * the query is left out of the recorded query for that reason).
 * An id in an item path (`/plants/{id}`) becomes the placeholder too (`/plants/{{id}}`). In proxy
 * mode the expectation is what the spec's rules say of the request (the proxy's request verdict);
 * the upstream's answer decides only what the spec cannot (whether a well-formed credential is
 * valid), and a case whose answer departs from the contract says so. What a case cannot express
 * (a success on an item path, which needs the record created first; a body the journal cut or
 * never read; a forced answer) is left out and counted in the file's description. The recorder
 * (--record, recorder.ts) makes its files with the same CaseCollector.
 */
import { createHash } from 'node:crypto';
import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless, type LosslessNumber } from 'lossless-json';
import { PLACEHOLDERS } from '../../fixtures/index.js';
import { ID_RANGES, type IdKind } from '../../fixtures/ids.js';
import { mediaEssence } from '../../openapi/media-types.js';
import { parseExactJson, integerOfLiteral } from '../../openapi/schema/exact-json.js';
import type { SecurityScheme } from '../../openapi/operations/model.js';
import { cookieValue } from '../../openapi/operations/parameters.js';
import { isObject } from '../../openapi/schema/resolve.js';
import type { MockContext } from './context.js';
import type { Collection } from '../../openapi/operations/collections.js';
import type { RoutedOperation } from '../engine/context.js';
import { errorCatalogue, reject, type ErrorCode } from '../errors.js';
import { isKnownScheme, KnownSecrets, maskSecret } from '../http/credentials.js';
import { rejected, type Answer } from '../http/answer.js';
import { verdictOf } from './exchange.js';
import { isAdminPath } from './prefix.js';
import type { JournalEntry, JournalQuery, RequestJournal, Verdict } from './journal.js';

/** The expectations of the fixture format, by the verdict they come from. */
type Expectation = 'accepted' | 'rejected-body' | 'unauthenticated' | 'unsupported-media-type';
const EXPECTATIONS: ReadonlySet<Verdict> = new Set<Verdict>(['accepted', 'rejected-body', 'unauthenticated', 'unsupported-media-type']);

type Auth = 'bearer' | 'none' | 'invalid-token' | { authorization: string } | { scheme: string; value: string };
type Body = { json: unknown } | { text: string } | { empty: true };

export interface ExportedCase {
  name: string;
  description: string;
  expect: Expectation;
  request: {
    method?: string;
    path?: string;
    auth?: Auth;
    contentType?: string | null;
    id?: IdKind;
    body: Body;
  };
  origin?: string;
}

export interface CaseFile {
  description: string;
  cases: ExportedCase[];
}

const PAGE = 500;
/** Placeholder for the id while the body is serialised (the format's own is {{id}}). */
const ID_MARK = '\u0000plant-store-id\u0000';

/** How cases of one file are named and say where they came from. */
export interface CaseSource {
  /** Case names start with it; names must be unique across the files of a directory. */
  namePrefix: string;
  /** Where an entry came from, for a case's description and origin (`mock journal #12, 2025-…`). */
  where(entry: JournalEntry): string;
}

/** Bounds of one file of cases. */
export interface CaseLimits {
  maxCases: number;
  /** Bytes of the cases' JSON. */
  maxBytes: number;
}

/**
 * The cases of a stream of journal entries: each entry made into a case or counted with the
 * reason it cannot be one, repeats dropped (same request, same expectation), within bounds.
 * The export of the journal and the recorder (--record) both use it.
 */
export class CaseCollector {
  /** The cases made, unless the collector was told not to keep them (an export written as it goes). */
  readonly cases: ExportedCase[] = [];
  /** How many cases were made. */
  count = 0;
  /** Entries left out, by reason. */
  readonly skipped = new Map<string, number>();
  /** Cases whose expectation the answer the entry got departs from (proxy mode). */
  departures = 0;
  /** Bytes of the cases' JSON so far. */
  bytes = 0;
  /** Once a bound is reached, every further entry is only counted (without making its case). */
  full = false;
  /** Digests of the cases made (their request and expectation): what tells a repeat, a few bytes a case whatever its body. */
  readonly #seen = new Set<string>();
  readonly #keepCases: boolean;

  constructor(
    readonly source: CaseSource,
    readonly limits: CaseLimits = { maxCases: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY },
    { keepCases = true }: { keepCases?: boolean } = {},
  ) {
    this.#keepCases = keepCases;
  }

  /**
   * Adds the case of `entry`, when it is one and a new one; returns it then. `secrets` are the
   * credentials the request carried: a case that would quote one anywhere is left out.
   */
  add(entry: JournalEntry, context: MockContext, secrets: readonly string[] = []): ExportedCase | undefined {
    if (this.full) return void this.#skip(this.#fullReason());
    const made = caseOf(entry, context, this.source);
    if (typeof made === 'string') return void this.#skip(made);
    const key = createHash('sha256')
      .update(JSON.stringify({ ...made.case.request, expect: made.case.expect }))
      .digest('base64');
    if (this.#seen.has(key)) return undefined;
    const operation = (entry.operationId ?? 'request')
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    made.case.name = `${this.source.namePrefix}-${operation || 'request'}-${made.case.expect}-${entry.seq}`;
    const text = stringifyLossless(made.case) as string;
    // The journal masks a request's credentials wherever its entry quotes them: a case holding one, or its mask, is not what was sent.
    if (secrets.length && quotesAny(text, secrets)) return void this.#skip('requests that carry their credential outside its header (in the body, the path or the query)');
    const bytes = Buffer.byteLength(text);
    if (this.bytes + bytes > this.limits.maxBytes) {
      this.full = true;
      return void this.#skip(this.#fullReason());
    }
    this.#seen.add(key);
    if (this.#keepCases) this.cases.push(made.case);
    this.count++;
    this.bytes += bytes;
    if (made.departs) this.departures++;
    if (this.count >= this.limits.maxCases) this.full = true;
    return made.case;
  }

  /** An entry left out without looking at it (the file is full). */
  skipUnseen(): void {
    this.#skip(this.#fullReason());
  }

  #fullReason(): string {
    return `requests after the file reached its bound (${this.limits.maxCases} cases or ${this.limits.maxBytes} bytes)`;
  }

  /** What was left out, in words: `2 answers forced with 'Prefer: code='; 1 …`. */
  leftOut(): string {
    return [...this.skipped].map(([reason, count]) => `${count} ${reason}`).join('; ');
  }

  #skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }
}

/** Whether `text` holds one of `secrets`, or the mask the journal puts in its place (`ab…yz`, for the long ones only: `…` says nothing). */
function quotesAny(text: string, secrets: readonly string[]): boolean {
  // One pass over the case for the secrets and their masks together: a request may carry a thousand cookies.
  const masks = secrets.map(maskSecret).filter((mask) => mask !== '…');
  return new KnownSecrets([...secrets, ...masks]).mask(text) !== text;
}

/** The journal's own wording of where an exported case came from. */
export const JOURNAL_SOURCE: CaseSource = {
  namePrefix: 'recorded',
  where: (entry) => `mock journal #${entry.seq}, ${entry.at}${entry.replica ? `, replica ${entry.replica}` : ''}`,
};

/**
 * The entries of the journal matching `query`, oldest first (the order the frontend sent them):
 * their seqs are chosen first (numbers only), then each entry is read as it is needed, so an
 * export held up by a client that does not read holds one entry, not the journal.
 */
async function* entriesOldestFirst(journal: RequestJournal, query: JournalQuery): AsyncGenerator<JournalEntry> {
  const seqs: number[] = [];
  for (let before = query.before, more = true; more;) {
    const page = await journal.select({ ...query, before, limit: PAGE });
    seqs.push(...page.seqs);
    more = page.more && page.seqs.length > 0;
    before = page.seqs.at(-1);
  }
  // Entries that left the journal since the seqs were chosen are left out.
  for (let at = seqs.length - 1; at >= 0; at--) {
    const entry = await journal.entry(seqs[at] as number);
    if (entry) yield entry;
  }
}

/** The file's description, once every entry was seen. */
function exportDescription(collector: CaseCollector, context: MockContext, now: Date): string {
  const { count } = collector;
  const left = collector.leftOut();
  return (
    `What frontends sent to the ${context.engine.contract.title} mock, exported from its journal on ${now.toISOString()}: ` +
    `${count} distinct request${count === 1 ? '' : 's'}, each expected to get what the contract says of it.` +
    departuresText(collector) +
    (left ? ` Left out: ${left}.` : '')
  );
}

/** The sentence a file's description says of cases whose recorded answer departs from the contract. */
export function departuresText(collector: CaseCollector): string {
  const n = collector.departures;
  if (!n) return '';
  return ` ${n} of them got an answer from the upstream that departs from the contract (each says so): they fail against it until it changes.`;
}

/**
 * The answer of `?format=cases`: the case file as a download, or a 404 saying why there is none.
 * The file is written a case at a time as the client takes it (http/stream.ts), like the listing:
 * its cases first, then its description (which counts what was left out, known only at the end).
 * Entries are read until the first case decides between the 200 and the 404; the rest only as
 * the client reads, and each case is dropped once written (the collector keeps what tells repeats).
 */
export async function casesAnswer(context: MockContext, query: JournalQuery, secrets: readonly string[] = [], now = new Date()): Promise<Answer> {
  const collector = new CaseCollector(JOURNAL_SOURCE, undefined, { keepCases: false });
  const entries = entriesOldestFirst(context.journal, query);
  let first: ExportedCase | undefined;
  for (let next = await entries.next(); !next.done; next = await entries.next()) {
    first = collector.add(next.value, context, secrets);
    if (first) break;
  }
  if (!first) {
    const reasons = [...collector.skipped].map(([reason, count]) => `${count} ${reason}`);
    return rejected(reject('NOTHING_TO_EXPORT', { reasons }));
  }
  return {
    status: 200,
    stream: casePieces(first, entries, collector, context, secrets, now),
    headers: {
      'content-type': 'application/json',
      'content-disposition': 'attachment; filename="frontend-requests.cases.json"',
      'cache-control': 'no-store',
    },
  };
}

/** One case as it stands in the file's `cases` array (`caseFileText`'s layout). */
function caseText(exported: ExportedCase): string {
  return `    ${(stringifyLossless(exported, undefined, 2) as string).replaceAll('\n', '\n    ')}`;
}

async function* casePieces(first: ExportedCase, entries: AsyncGenerator<JournalEntry>, collector: CaseCollector, context: MockContext, secrets: readonly string[], now: Date): AsyncGenerator<string> {
  let piece = `{\n  "cases": [\n${caseText(first)}`;
  for await (const entry of entries) {
    const made = collector.add(entry, context, secrets);
    if (!made) continue;
    piece += `,\n${caseText(made)}`;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}\n  ],\n  "description": ${JSON.stringify(exportDescription(collector, context, now))}\n}\n`;
}

/** Cases go out together, in pieces of about this many characters. */
const PIECE_CHARS = 32 * 1024;

/** A case file as written: pretty-printed, numbers exact. */
export function caseFileText(file: CaseFile): string {
  return `${stringifyLossless(file, undefined, 2) as string}\n`;
}

/**
 * What a case expects of an entry's request, from the mock's verdict; in proxy mode from the
 * spec's rules applied to the request (the proxy's request violations), the upstream's answer
 * deciding only what the spec cannot: whether a well-formed credential is valid.
 */
interface CaseVerdict {
  expect: Expectation;
  /** The catalogue code behind an expectation other than accepted (how the credential was wrong …). */
  code?: string;
  /** What was answered, in words, for the description. */
  answered: string;
  /** Why the answer departs from the expectation, when it does (proxy mode). */
  departs?: string;
}

function caseVerdictOf(entry: JournalEntry, operation: RoutedOperation): CaseVerdict | string {
  if (entry.violations === undefined) {
    if (!EXPECTATIONS.has(entry.verdict)) {
      return entry.verdict === 'forced' ? "answers forced with 'Prefer: code='" : `answers the contract has no expectation for (${entry.status}${entry.code ? ` ${entry.code}` : ''})`;
    }
    return { expect: entry.verdict as Expectation, code: entry.code, answered: `the mock answered ${entry.status}${entry.code ? ` ${entry.code}: ${cutText(entry.message ?? '', 200)}` : '.'}` };
  }
  // Proxy mode: the request judged by the mock's rules, in the mock's order; the upstream answered.
  const request = entry.violations.filter((v) => v.in === 'request');
  if (request.some((v) => v.code === 'NOT_VALIDATED')) return 'requests the proxy could not judge (a body larger than --max-body or answered before it arrived, or a failure of the mock)';
  const upstream = `the upstream answered ${entry.status}`;
  const succeeded = entry.status >= 200 && entry.status < 300;
  const first = request.find((v) => v.severity === 'error');
  if (first) {
    const code = first.code as ErrorCode;
    const verdict = verdictOf(errorCatalogue[code]?.status ?? 400, { code }, {});
    if (!EXPECTATIONS.has(verdict)) return `requests the spec refuses for what a case cannot say (${first.code})`;
    return {
      expect: verdict as Expectation,
      code: first.code,
      answered: `by the spec ${first.code}: ${cutText(first.message, 200)}; ${upstream}.`,
      ...(succeeded ? { departs: `the upstream accepted a request the spec refuses` } : {}),
    };
  }
  if (succeeded) return { expect: 'accepted', answered: `${upstream}.` };
  // A well-formed credential the upstream refused: one it never issued.
  if (entry.status === 401) return { expect: 'unauthenticated', code: 'INVALID_TOKEN', answered: `${upstream}: it refused the credential, well-formed by the spec.` };
  // A valid request answered with a declared error or a server error: the provider departs from the contract.
  if (entry.status >= 500 || operation.contract.declaredStatuses.includes(entry.status)) {
    return { expect: 'accepted', answered: `${upstream}.`, departs: `the request is valid by the spec, yet ${upstream}` };
  }
  return `valid requests the upstream answered with a status the spec leaves unsaid (${entry.status})`;
}

/** The case for one journal entry, or why there is none. */
function caseOf(entry: JournalEntry, context: MockContext, source: CaseSource): { case: ExportedCase; departs?: string } | string {
  if (isAdminPath(entry.path)) return "requests to the mock's own routes";
  if (entry.operationId === undefined) return 'requests to no operation of the spec';
  const { engine } = context;
  const primary = engine.primary;
  const operation = engine.routes.operations.find((o) => o.operationId === entry.operationId);
  if (!operation) return 'requests to an operation the spec no longer has';
  const verdict = caseVerdictOf(entry, operation);
  if (typeof verdict === 'string') return verdict;
  const { expect } = verdict;
  const isPrimaryCreate = primary !== undefined && operation.operationId === primary.create.operationId;
  const item = isPrimaryCreate ? undefined : itemIdOf(entry, operation);
  // A case has no step that creates the record first, so a success on an item path cannot be expected of a provider.
  if (!isPrimaryCreate && expect === 'accepted' && operation.path.includes('{'))
    return `accepted requests to ${operation.method} ${operation.path} (the record would have to exist first: a case has no step that creates it)`;
  const header = (name: string): string | undefined => entry.request.headers.find(([n]) => n.toLowerCase() === name)?.[1];

  const body = entry.request.body;
  if (body?.unread) return 'requests whose body the mock answered without reading';
  if (body?.cut) return 'requests whose body is larger than the journal keeps';
  if (body && body.encoding !== 'utf8') return 'requests whose body is not UTF-8 text';
  const exported = exportBody(body?.text, primary, expect, item?.id);
  if (typeof exported === 'string') return exported;

  let contentType: string | null | undefined;
  const sentType = header('content-type');
  if (expect === 'unsupported-media-type') contentType = sentType ?? null;
  else if (sentType === undefined && !('empty' in exported.body)) contentType = null;
  else if (sentType !== undefined && mediaEssence(sentType) !== 'application/json') contentType = sentType;
  const schemes = context.engine.contract.securitySchemes;
  const auth = authOf(verdict, header('authorization'), namedScheme(entry, operation, schemes, header));
  const kept = entry.query ? withoutQueryKeys(entry.query, operation, schemes) : '';
  const query = kept ? `?${kept}` : '';
  const id = item ? idKindOf(item.id) : exported.id;
  // Keys in the order the bundled case files write them.
  const request: ExportedCase['request'] = {
    ...(isPrimaryCreate ? {} : { method: entry.method, path: (item?.path ?? entry.path) + query }),
    ...(auth === 'bearer' ? {} : { auth }),
    ...(contentType === undefined ? {} : { contentType }),
    ...(id ? { id } : {}),
    body: exported.body,
  };
  // A valid body the suite sends under the wrong credentials or media type must stay valid: judge it as the mock would.
  if ((expect === 'unauthenticated' || expect === 'unsupported-media-type') && !validBody(exported.text, operation)) {
    return `${expect} requests whose body is not a valid ${operation.body?.schemaName ?? 'body'} either`;
  }

  const made: ExportedCase = {
    name: '',
    description:
      `${entry.method} ${entry.path} as a frontend sent it (${source.where(entry)}); ${verdict.answered}` +
      (verdict.departs ? ` It departs from the contract (${verdict.departs}): this case fails against that upstream until it changes.` : ''),
    expect,
    request,
    origin: source.where(entry),
  };
  return verdict.departs ? { case: made, departs: verdict.departs } : { case: made };
}

/**
 * The identity in an item path (`/plants/9223372036854775807` of `/plants/{id}`), with the path
 * that names the fresh-id placeholder in its place; undefined for a path without one.
 */
function itemIdOf(entry: JournalEntry, operation: RoutedOperation): { id: bigint; path: string } | undefined {
  const template = operation.path.split('/');
  const sent = entry.path.split('/');
  const at = template.flatMap((segment, index) => (/^\{[^/{}]+\}$/.test(segment) ? [index] : []));
  if (at.length !== 1 || template.length !== sent.length) return undefined;
  const value = sent[at[0] as number] as string;
  if (!/^-?(0|[1-9]\d{0,40})$/.test(value)) return undefined;
  sent[at[0] as number] = PLACEHOLDERS.id;
  return { id: BigInt(value), path: sent.join('/') };
}

/**
 * The credential the request carried, as the fixture format says it: never the credential itself.
 * `named` is the scheme it went by when the operation takes several alternatives (the suite would
 * send the first): the case names it, so that the replay sends it there too.
 */
function authOf(verdict: CaseVerdict, authorization: string | undefined, named: SecurityScheme | undefined): Auth {
  if (verdict.expect !== 'unauthenticated') return named ? { scheme: named.name, value: PLACEHOLDERS.token } : 'bearer';
  // A key refused under one of several alternatives (the mock names the first alternative's fault): one it never issued, where it was sent.
  if (named?.kind === 'api-key') return { scheme: named.name, value: PLACEHOLDERS.invalidToken };
  if (verdict.code === 'MISSING_CREDENTIALS' || verdict.code === 'MISSING_API_KEY') return 'none';
  // A key in a cookie or the query the mock does not accept is as never issued as a bearer token it does not.
  if (verdict.code === 'INVALID_TOKEN') return 'invalid-token';
  if (authorization === undefined) return 'none';
  // The journal holds the scheme and a mask: keep the scheme, let the suite put its own token behind it.
  const scheme = /^\s*(\S+)/.exec(authorization)?.[1];
  if (verdict.code === 'EMPTY_TOKEN') return { authorization: scheme && isKnownScheme(scheme) ? `${scheme} ` : '' };
  if (scheme && isKnownScheme(scheme)) return { authorization: `${scheme} {{token}}` };
  return { authorization: '{{token}}' };
}

/**
 * The security scheme a request's credential went by, when the operation takes several
 * alternatives: the first alternative of one scheme whose credential the request carried (its
 * Authorization scheme, its API key's header, query parameter or cookie).
 */
function namedScheme(entry: JournalEntry, operation: RoutedOperation, schemes: ReadonlyMap<string, SecurityScheme>, header: (name: string) => string | undefined): SecurityScheme | undefined {
  const alternatives = operation.contract.security;
  if (alternatives.length < 2) return undefined;
  const authorization = /^\s*(\S+)/.exec(header('authorization') ?? '')?.[1]?.toLowerCase();
  const carried = (scheme: SecurityScheme | undefined): boolean => {
    switch (scheme?.kind) {
      case 'http-bearer':
      case 'oauth-bearer':
        return authorization === 'bearer';
      case 'http-basic':
        return authorization === 'basic';
      case 'api-key':
        if (scheme.in === 'header') return header(scheme.parameter.toLowerCase()) !== undefined;
        if (scheme.in === 'query') return queryNames(entry.query ?? '').has(scheme.parameter);
        return cookieValue(header('cookie'), scheme.parameter) !== undefined;
      default:
        return false;
    }
  };
  for (const names of alternatives) {
    const scheme = names.length === 1 ? schemes.get(names[0] as string) : undefined;
    if (carried(scheme)) return scheme;
  }
  return undefined;
}

/** The query without the API keys the operation takes there (the replay sends the provider's own), the rest as sent. */
function withoutQueryKeys(query: string, operation: RoutedOperation, schemes: ReadonlyMap<string, SecurityScheme>): string {
  const keys = new Set(
    operation.contract.security.flat().flatMap((name) => {
      const scheme = schemes.get(name);
      return scheme?.kind === 'api-key' && scheme.in === 'query' ? [scheme.parameter] : [];
    }),
  );
  if (keys.size === 0) return query;
  return query
    .split('&')
    .filter((pair) => !keys.has(queryName(pair)))
    .join('&');
}

function queryName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

function queryNames(query: string): Set<string> {
  return new Set(query === '' ? [] : query.split('&').map(queryName));
}

/**
 * The body with its identity replaced by the fresh-id placeholder, or why it cannot be a case.
 * With `pathId` (the path names the record), the placeholder stands for that id: the body's
 * identity becomes it only where it is the same id.
 */
function exportBody(text: string | undefined, collection: Collection | undefined, expect: Expectation, pathId?: bigint): { body: Body; id?: IdKind; text: string | undefined } | string {
  if (text === undefined || text === '') {
    if (expect === 'accepted') return 'accepted requests without a body';
    return { body: { empty: true }, text: undefined };
  }
  let value: unknown;
  try {
    value = parseLossless(text);
  } catch {
    if (expect === 'accepted') return 'accepted requests whose body is not JSON';
    return { body: { text }, text };
  }
  const property = collection?.identity.property ?? 'id';
  const object = isObject(value) ? value : undefined;
  const literal = object?.[property];
  const id = isLosslessNumber(literal) ? integerOfLiteral((literal as LosslessNumber).value) : undefined;
  // An accepted body that names no id (the provider assigns it, or the operation stores nothing): the format
  // asks an accepted case for an id kind, and the suite leaves the drawn id out where the body has no property for it.
  if (expect === 'accepted' && object && literal === undefined && pathId === undefined) {
    return { body: { json: object }, id: 'safe-positive', text: stringifyLossless(object) as string };
  }
  if (!object || id === undefined || (pathId !== undefined && id !== pathId)) {
    if (expect === 'accepted') return 'accepted requests without an integer id';
    return { body: { text: stringifyLossless(value) as string }, text: stringifyLossless(value) as string };
  }
  const kind = idKindOf(id);
  if (expect === 'accepted' && property === 'id') {
    const { [property]: _id, ...rest } = object;
    // An accepted body is a valid create body; the format puts the id first.
    return { body: { json: rest }, id: kind, text: stringifyLossless(object) as string };
  }
  const marked = stringifyLossless({ ...object, [property]: ID_MARK }) as string;
  return { body: { text: marked.replace(JSON.stringify(ID_MARK), '{{id}}') }, id: kind, text: stringifyLossless(object) as string };
}

/** The id kind of the fixture format an id falls in (the nearest one for ids between kinds). */
export function idKindOf(id: bigint): IdKind {
  for (const [kind, [min, max]] of Object.entries(ID_RANGES) as [IdKind, readonly [bigint, bigint]][]) {
    if (id >= min && id <= max) return kind;
  }
  if (id > ID_RANGES['int64-overflow'][1]) return 'int64-overflow';
  if (id < ID_RANGES['int64-underflow'][0]) return 'int64-underflow';
  if (id > 0n) return 'beyond-2^53';
  if (id < 0n) return 'near-int64-min';
  return 'safe-positive';
}

/** Whether `text` is a body the operation takes (none, for an operation that takes none). */
function validBody(text: string | undefined, operation: RoutedOperation): boolean {
  const body = operation.body;
  if (text === undefined) return !body?.required;
  if (!body?.media.validate) return false;
  try {
    return body.media.validate(parseExactJson(text)) === true;
  } catch {
    return false;
  }
}

function cutText(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
