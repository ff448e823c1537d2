/**
 * One exchange as the journal keeps it: the request's and the answer's headers and bodies, each
 * cut at a bound in bytes (the cut is marked), credentials masked (http/credentials.ts), ids
 * exact (bodies are kept as the text that crossed the wire, never re-serialised). Nothing a
 * client sends is kept whole: a 1 MiB body costs the journal at most `bodyBytes`.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Rejection } from '../errors.js';
import type { Answer } from '../http/answer.js';
import { hasBody, readBuffered } from '../http/request-body.js';
import { COMMON_CREDENTIAL_HEADERS, COMMON_CREDENTIAL_QUERY, isKnownScheme, KnownSecrets, maskHeader, maskKnownSecrets, maskQuery, type CredentialPlaces } from '../http/credentials.js';
import type { SecurityScheme } from '../../openapi/operations/model.js';
import type { Violation } from '../../openapi/judge/violation.js';
import type { HeaderLine, JournalBody, JournalMessage, JournalRecord, PendingRecord, RequestJournal, Verdict } from './journal.js';

export interface ExchangeBounds {
  /** Bytes of one body kept (request and answer each). */
  bodyBytes: number;
  /** Bytes of one side's header lines kept (names and values); also the bound of the query string. */
  headerBytes: number;
}

export const DEFAULT_EXCHANGE_BOUNDS: ExchangeBounds = { bodyBytes: 64 * 1024, headerBytes: 16 * 1024 };

/** What the journal masks and how much it keeps of one exchange. */
export interface JournalPolicy extends ExchangeBounds {
  credentials: CredentialPlaces;
  /** The parts one exchange repeats from the one before, kept once for both. */
  repeats: Repeats;
}

/**
 * What an exchange repeats from the previous one: a client sends the same header lines on every
 * request of a connection, and the mock's answers of one kind carry the same ones. A journal entry
 * that points at the parts its predecessor already keeps adds almost nothing to what a garbage
 * collection must copy while the entries are kept, and under load that copying is most of what
 * keeping whole exchanges costs (docs/benchmarks.md).
 */
export class Repeats {
  readonly #requestHeaders = new WeakMap<object, readonly string[]>();
  /** The policy a request's header lines call for (their credentials added), per lines. */
  readonly #policies = new WeakMap<readonly string[], JournalPolicy>();
  /** Header lines (or fields) masked and written as JSON, with the secrets they were masked with. */
  readonly #headersJson = new WeakMap<object, { secrets: KnownSecrets; json: string }>();
  #responseHeaders: Readonly<Record<string, string | number>> | undefined;
  #url = '';
  /** The secrets of the last request that carried credentials of its own: the next one often carries the same (its compiled matcher is reused). */
  #secrets: KnownSecrets | undefined;

  /** The request's header lines, or the equal ones its connection sent last. */
  requestHeaders(connection: object, raw: readonly string[]): readonly string[] {
    const last = this.#requestHeaders.get(connection);
    if (last && sameLines(last, raw)) return last;
    this.#requestHeaders.set(connection, raw);
    return raw;
  }

  /** The answer's header fields, or the equal ones of the answer before. */
  responseHeaders(headers: Readonly<Record<string, string | number>>): Readonly<Record<string, string | number>> {
    const last = this.#responseHeaders;
    if (last && sameFields(last, headers)) return last;
    this.#responseHeaders = headers;
    return headers;
  }

  /**
   * `policyFor` of these lines, made once for them: a request's own credentials come from its
   * header lines and its query, so a target without a query shares its lines' policy.
   */
  policyFor(base: JournalPolicy, rawHeaders: readonly string[], url: string): JournalPolicy {
    if (url.includes('?')) return policyFor(base, rawHeaders, url);
    let policy = this.#policies.get(rawHeaders);
    if (policy === undefined) {
      policy = policyFor(base, rawHeaders, url);
      this.#policies.set(rawHeaders, policy);
    }
    return policy;
  }

  /** `write()` for these lines and secrets, or what it wrote for them before. */
  headersJson(lines: object, secrets: KnownSecrets, write: () => string): string {
    const kept = this.#headersJson.get(lines);
    if (kept && (kept.secrets === secrets || sameLines(kept.secrets.list, secrets.list))) return kept.json;
    const json = write();
    this.#headersJson.set(lines, { secrets, json });
    return json;
  }

  /** Known secrets for `list`, or the equal ones made last. */
  secrets(list: readonly string[]): KnownSecrets {
    const last = this.#secrets;
    if (last && sameLines(last.list, list)) return last;
    return (this.#secrets = new KnownSecrets(list));
  }

  url(url: string): string {
    if (url === this.#url) return this.#url;
    this.#url = url;
    return url;
  }
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameFields(a: Readonly<Record<string, string | number>>, b: Readonly<Record<string, string | number>>): boolean {
  let count = 0;
  for (const name in b) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const _ in a) count--;
  return count === 0;
}

/**
 * The places credentials travel for a spec's security schemes, and the secrets the mock knows.
 * `maskNames` (`--mask-name`) extends the one list of masked names: each is masked as a header
 * (any letter case) and as a query parameter.
 */
export function credentialPlaces(schemes: Iterable<SecurityScheme>, secrets: readonly string[], maskNames: readonly string[] = []): CredentialPlaces {
  const headers = new Set([...COMMON_CREDENTIAL_HEADERS, ...maskNames.map((name) => name.toLowerCase())]);
  const query = new Set([...COMMON_CREDENTIAL_QUERY, ...maskNames]);
  for (const scheme of schemes) {
    if (scheme.kind !== 'api-key') continue;
    if (scheme.in === 'header') headers.add(scheme.parameter.toLowerCase());
    if (scheme.in === 'query') query.add(scheme.parameter);
  }
  return { headers, query, secrets: new KnownSecrets(secrets.filter((secret) => secret !== '')) };
}

/**
 * The credentials a request carried, as sent: Authorization's (and Proxy-Authorization's)
 * credentials, cookie values, the values of the spec's API-key headers and query parameters. The
 * mock may not know them (no --tokens), but the request says where they are.
 */
export function requestCredentials(rawHeaders: readonly string[], url: string | undefined, places: CredentialPlaces): string[] {
  const found: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = (rawHeaders[i + 1] as string).trim();
    if (name === 'authorization' || name === 'proxy-authorization') {
      const match = /^(\S+)\s+(.+)$/s.exec(value);
      if (match && isKnownScheme(match[1] as string)) found.push((match[2] as string).trim());
      // No known scheme: the value may be the credential, or begin with it (`sk_live_… and more`).
      else found.push(value, ...value.split(/\s+/));
    } else if (name === 'cookie') {
      // A cookie without a name is all value.
      for (const pair of value.split(';')) found.push(pair.slice(pair.indexOf('=') + 1).trim());
    } else if (places.headers.has(name)) found.push(value);
  }
  const queryAt = url?.indexOf('?') ?? -1;
  if (url !== undefined && queryAt !== -1) {
    for (const [name, value] of new URLSearchParams(url.slice(queryAt + 1))) if (places.query.has(name)) found.push(value);
  }
  return found.filter((credential) => credential !== '');
}

/** A request's own credentials shorter than this are not searched for in its entry: they would mask ordinary words. */
const OWN_CREDENTIAL_MIN_LENGTH = 8;

/** The policy for one request's entry: its own credentials masked wherever the entry quotes them, besides those the mock knows. */
function policyFor(policy: JournalPolicy, rawHeaders: readonly string[], url: string | undefined): JournalPolicy {
  const own = requestCredentials(rawHeaders, url, policy.credentials).filter((credential) => credential.length >= OWN_CREDENTIAL_MIN_LENGTH);
  if (!own.length) return policy;
  const secrets = policy.repeats.secrets([...new Set([...policy.credentials.secrets.list, ...own])]);
  return { ...policy, credentials: { ...policy.credentials, secrets } };
}

/** What the edge knows of one exchange once the answer has left. */
export interface WireExchange {
  req: IncomingMessage;
  /** The target's path as the edge parsed and routed it (`pathOf`): an absolute-form target's without its authority. */
  path: string;
  /** The request body as the mock read it; undefined when it was not read. */
  requestBody: Buffer | undefined;
  answer: Answer;
  /** The headers the answer was written with (CORS included). */
  responseHeaders: Readonly<Record<string, string | number>>;
  /**
   * The body of an answer the mock did not write as one string: the upstream's in proxy mode, as far
   * as it was read; the start of a streamed one (a listing), up to the bound and a few bytes more.
   */
  responseBody?: Buffer;
  /** The whole size of a streamed body, when `responseBody` holds its start only. */
  responseBytes?: number;
  /** When the request arrived (ms since the epoch). */
  time: number;
  durationMs: number;
}

/**
 * Hands an exchange to the journal, and returns what it handed over (for the recorder, which
 * reads the same record); a failure to describe it never fails the request.
 */
export function recordExchange(journal: RequestJournal, exchange: WireExchange, policy: JournalPolicy): JournalRecord | PendingRecord | undefined {
  try {
    // An upstream's answer is its bytes, and a proxy's verdict quotes it: recorded (masked, cut,
    // copied) at once, so nothing of them stays reachable. An answer of the mock's own, accepted
    // or refused, is captured as bounded parts and recorded only when the entry is read: most
    // never are, and on the request path making the record costs more than the rest of the
    // journal together (docs/benchmarks.md).
    const { answer } = exchange;
    const record = answer.send !== undefined || answer.violations !== undefined ? journalRecord(exchange, policy) : new CapturedExchange(exchange, policy);
    journal.record(record);
    return record;
  } catch {
    // A journal must never fail the request it describes.
    return undefined;
  }
}

/**
 * An exchange the mock answered itself, kept as parts the record is made from later: the request
 * line and its header lines as Node parsed them, a copy of the body the mock read or found
 * buffered (at most the bound), the answer the mock wrote (its own text) and, for a refusal, copies
 * of its words (they quote what the client sent). The credentials are masked when the record is
 * made; nothing is ever shown from these parts unmasked.
 */
class CapturedExchange implements PendingRecord {
  readonly time: number;
  readonly status: number;
  readonly path: string;
  readonly size: number;
  readonly #url: string;
  /** Header names and values as Node parsed them (never shown before they are masked). */
  readonly #rawHeaders: readonly string[];
  /** The body's bytes as a latin1 string (one byte a character), a copy at most the bound long; or its text. */
  readonly #body: string | undefined;
  /** Whether `#body` is the body's text (the JSON the mock parsed) rather than its bytes. */
  readonly #bodyIsText: boolean;
  /** The request body's size as received. */
  readonly #bodyBytes: number;
  /** The declared size of a body the mock answered without reading and found nothing of buffered. */
  readonly #unreadBytes: number | undefined;
  /** A refusal's code and words, copied (they quote slices of what the client sent). */
  readonly #refusal: RefusalWords | undefined;
  readonly #responseHeaders: Readonly<Record<string, string | number>>;
  /** The answer's body, or its start when it was larger than the bound (then `#answerBytes` is its whole size). */
  readonly #answerBody: string | undefined;
  readonly #answerBytes: number | undefined;
  readonly #operationId: string | undefined;
  readonly #stateful: boolean | undefined;
  readonly #method: string;
  readonly #durationMs: number;
  readonly #policy: JournalPolicy;

  constructor(exchange: WireExchange, policy: JournalPolicy) {
    const { req, answer } = exchange;
    this.#url = policy.repeats.url(req.url ?? '/');
    this.path = maskKnownSecrets(exchange.path, policy.credentials.secrets);
    this.status = answer.status;
    this.#method = req.method ?? '';
    this.#rawHeaders = policy.repeats.requestHeaders(req.socket, req.rawHeaders);
    const unread = exchange.requestBody === undefined && hasBody(req);
    const read = unread ? bufferedBody(req, policy) : exchange.requestBody;
    this.#bodyBytes = read?.length ?? 0;
    this.#unreadBytes = unread && read === undefined ? declaredBytes(req) : undefined;
    // The text the mock parsed when it fits the bound whole; else a copy of the bytes (they may be a
    // slice of a much larger buffer, which they would keep alive).
    const text = answer.requestText;
    this.#bodyIsText = text !== undefined && read !== undefined && read.length <= policy.bodyBytes;
    this.#body = this.#bodyIsText ? text : read && read.length > 0 ? read.toString('latin1', 0, utf8Boundary(read, policy.bodyBytes)) : undefined;
    this.#responseHeaders = policy.repeats.responseHeaders(exchange.responseHeaders);
    // Only what the record will keep: a large answer is not held whole until the entry is read.
    if (answer.body === undefined && exchange.responseBody !== undefined) {
      // A streamed answer: the start the edge kept while writing it (already a copy, at most the bound and a character more).
      const start = exchange.responseBody;
      const whole = exchange.responseBytes ?? start.length;
      const kept = start.subarray(0, utf8Boundary(start, policy.bodyBytes));
      this.#answerBytes = whole > kept.length ? whole : undefined;
      this.#answerBody = isUtf8(kept) ? kept.toString('utf8') : undefined;
    } else {
      const answerBytes = answer.body === undefined || answer.body.length * 3 <= policy.bodyBytes ? undefined : Buffer.byteLength(answer.body);
      this.#answerBytes = answerBytes !== undefined && answerBytes > policy.bodyBytes ? answerBytes : undefined;
      this.#answerBody = this.#answerBytes === undefined ? answer.body : cut(answer.body as string, policy.bodyBytes).text;
    }
    this.#operationId = answer.operationId;
    this.#stateful = answer.stateful;
    this.time = exchange.time;
    this.#durationMs = exchange.durationMs;
    this.#policy = policy;
    // The words may quote slices of the request, and a slice keeps its whole parent string alive.
    // The entry keeps the body itself when it fits the bound, so only a larger body's words are copied.
    this.#refusal = answer.rejection && refusalWords(answer.rejection, this.#bodyBytes > policy.bodyBytes);
    let size = ENTRY_OVERHEAD_ESTIMATE + this.#url.length + (this.#body?.length ?? 0) + (this.#answerBody?.length ?? 0);
    for (const part of this.#rawHeaders) size += part.length + 4;
    if (this.#refusal) {
      size += this.#refusal.message.length;
      for (const text of this.#refusal.problems ?? []) size += text.length;
      for (const text of this.#refusal.fields ?? []) size += text.length;
    }
    this.size = size;
  }

  toRecord(): JournalRecord {
    // Made afresh: what toJson writes from the parts it keeps is held to this (mocks/test/journal-json.test.ts).
    const policy = policyFor(this.#policy, this.#rawHeaders, this.#url);
    const record: JournalRecord = {
      time: this.time,
      method: this.#method,
      path: this.#pathFor(policy),
      status: this.status,
      durationMs: this.#durationMs,
      verdict: verdictOf(this.status, this.#refusal, this.#responseHeaders),
      request: message(this.#rawHeaders, this.#requestBodyRecord(policy), policy),
      response: message(responseLines(this.#responseHeaders), this.#answerBodyRecord(policy), policy),
    };
    const query = this.#queryFor(policy);
    if (query !== undefined) record.query = query;
    if (this.#operationId !== undefined) record.operationId = this.#operationId;
    if (this.#stateful !== undefined) record.stateful = this.#stateful;
    if (this.#refusal) Object.assign(record, maskedRefusal(this.#refusal, policy.credentials.secrets));
    return record;
  }

  /**
   * The record's JSON text, `leading` members first: what `toRecord` holds, written without
   * building it. The header lines of a connection and the mock's answers repeat, so their masked
   * JSON is made once for the lines and the secrets they are masked with (`Repeats`).
   */
  toJson(leading: string): string {
    const repeats = this.#policy.repeats;
    const policy = repeats.policyFor(this.#policy, this.#rawHeaders, this.#url);
    const secrets = policy.credentials.secrets;
    const requestLines = repeats.headersJson(this.#rawHeaders, secrets, () => headerLinesJson(this.#rawHeaders, policy));
    const responseLinesJson = repeats.headersJson(this.#responseHeaders, secrets, () => headerLinesJson(responseLines(this.#responseHeaders), policy));
    const body = this.#requestBodyRecord(policy);
    const answer = this.#answerBodyRecord(policy);
    let json =
      `{${leading},"method":${JSON.stringify(this.#method)},"path":${JSON.stringify(this.#pathFor(policy))},"status":${this.status},` +
      `"durationMs":${JSON.stringify(this.#durationMs)},"verdict":${JSON.stringify(verdictOf(this.status, this.#refusal, this.#responseHeaders))},` +
      `"request":{${requestLines}${body ? `,"body":${JSON.stringify(body)}` : ''}},` +
      `"response":{${responseLinesJson}${answer ? `,"body":${JSON.stringify(answer)}` : ''}}`;
    const query = this.#queryFor(policy);
    if (query !== undefined) json += `,"query":${JSON.stringify(query)}`;
    if (this.#operationId !== undefined) json += `,"operationId":${JSON.stringify(this.#operationId)}`;
    if (this.#stateful !== undefined) json += `,"stateful":${this.#stateful}`;
    if (this.#refusal) json += `,${JSON.stringify(maskedRefusal(this.#refusal, secrets)).slice(1, -1)}`;
    return `${json}}`;
  }

  #pathFor(policy: JournalPolicy): string {
    return policy === this.#policy ? this.path : maskKnownSecrets(this.path, policy.credentials.secrets);
  }

  #queryFor(policy: JournalPolicy): string | undefined {
    const queryAt = this.#url.indexOf('?');
    return queryAt === -1 ? undefined : maskQuery(cut(this.#url.slice(queryAt + 1), policy.headerBytes).text, policy.credentials);
  }

  #requestBodyRecord(policy: JournalPolicy): JournalBody | undefined {
    if (this.#unreadBytes !== undefined) return { bytes: this.#unreadBytes, unread: true };
    if (this.#body === undefined || this.#body === '') return undefined;
    if (this.#bodyIsText) return stringBody(this.#body, policy);
    const body = bufferBody(Buffer.from(this.#body, 'latin1'), policy);
    if (this.#bodyBytes > this.#body.length) {
      body.bytes = this.#bodyBytes;
      body.cut = true;
    }
    return body;
  }

  #answerBodyRecord(policy: JournalPolicy): JournalBody | undefined {
    if (this.#answerBody === undefined) return undefined;
    if (this.#answerBytes === undefined) return stringBody(this.#answerBody, policy);
    return { bytes: this.#answerBytes, text: maskKnownSecrets(this.#answerBody, policy.credentials.secrets), encoding: 'utf8', cut: true };
  }
}

interface RefusalWords {
  code: Rejection['code'];
  message: string;
  problems?: string[];
  fields?: string[];
}

/** A refusal's words with the secrets masked, as the record holds them. */
function maskedRefusal(refusal: RefusalWords, secrets: KnownSecrets): RefusalWords {
  const masked: RefusalWords = { code: refusal.code, message: maskKnownSecrets(refusal.message, secrets) };
  if (refusal.problems) masked.problems = refusal.problems.map((text) => maskKnownSecrets(text, secrets));
  if (refusal.fields) masked.fields = refusal.fields.map((text) => maskKnownSecrets(text, secrets));
  return masked;
}

/** A side's header lines as the members of its JSON (`"headers":[…]`, and `"headersCut"` when cut), masked. */
function headerLinesJson(flat: readonly string[], policy: JournalPolicy): string {
  return JSON.stringify(message(flat, undefined, policy)).slice(1, -1);
}

/** A refusal's code and words as copies that share no memory with what the client sent. */
function refusalWords(rejection: Rejection, copy: boolean): RefusalWords {
  const kept = copy ? detached : (text: string): string => text;
  const words: RefusalWords = { code: rejection.code, message: kept(rejection.message) };
  if (rejection.problems?.length) words.problems = rejection.problems.map(kept);
  if (rejection.fields?.length) words.fields = rejection.fields.map(kept);
  return words;
}

/** What `entrySize` adds per entry for its structure (journal.ts), and a margin for the masks. */
const ENTRY_OVERHEAD_ESTIMATE = 640;

/**
 * The journal's record of an exchange. It runs for every request, so it does the least it can:
 * header lines masked in one pass, bodies cut and decoded once; serialising is the journal's
 * business (the in-memory one does it when an entry is first read).
 */
export function journalRecord(exchange: WireExchange, known: JournalPolicy): JournalRecord {
  const { req, answer } = exchange;
  const url = req.url ?? '/';
  const policy = policyFor(known, req.rawHeaders, url);
  const queryAt = url.indexOf('?');
  const rejection = answer.rejection;
  const record: JournalRecord = {
    time: exchange.time,
    method: req.method ?? '',
    path: maskKnownSecrets(exchange.path, policy.credentials.secrets),
    status: answer.status,
    durationMs: exchange.durationMs,
    verdict: verdictOf(answer.status, rejection, exchange.responseHeaders),
    request: message(req.rawHeaders, requestBody(req, exchange.requestBody, policy), policy),
    response: message(responseLines(exchange.responseHeaders), responseBodyOf(exchange, policy), policy),
  };
  // Proxy mode: an empty list says the exchange was judged and fits the spec. Their words quote
  // what the client or the upstream sent, like a rejection's: copied and masked the same way.
  if (answer.violations) record.violations = answer.violations.map((v) => keptViolation(v, policy));
  if (queryAt !== -1) record.query = maskQuery(cut(url.slice(queryAt + 1), policy.headerBytes).text, policy.credentials);
  if (answer.operationId !== undefined) record.operationId = answer.operationId;
  if (answer.stateful !== undefined) record.stateful = answer.stateful;
  if (rejection) {
    record.code = rejection.code;
    // Messages and problems quote (bounded) slices of what the client sent: copies keep none of it reachable.
    record.message = detached(maskKnownSecrets(rejection.message, policy.credentials.secrets));
    const kept = (text: string): string => detached(maskKnownSecrets(text, policy.credentials.secrets));
    if (rejection.problems?.length) record.problems = rejection.problems.map(kept);
    if (rejection.fields?.length) record.fields = rejection.fields.map(kept);
  }
  return record;
}

function keptViolation(violation: Violation, policy: JournalPolicy): Violation {
  const secrets = policy.credentials.secrets;
  const kept: Violation = { ...violation, message: detached(maskKnownSecrets(violation.message, secrets)) };
  if (violation.problems) kept.problems = violation.problems.map((problem) => detached(maskKnownSecrets(problem, secrets)));
  return kept;
}

function responseBodyOf(exchange: WireExchange, policy: JournalPolicy): JournalBody | undefined {
  if (exchange.answer.body !== undefined) return stringBody(exchange.answer.body, policy);
  if (!exchange.responseBody || exchange.responseBody.length === 0) return undefined;
  const body = bufferBody(exchange.responseBody, policy);
  // A streamed body whose start alone was kept: its whole size, and the cut.
  if (exchange.responseBytes !== undefined && exchange.responseBytes > exchange.responseBody.length) {
    body.bytes = exchange.responseBytes;
    body.cut = true;
  }
  return body;
}

/**
 * A copy of `text` that shares no memory with it (a slice in V8 keeps its whole parent reachable).
 * UTF-16 both ways keeps every code unit, a lone surrogate too.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

function responseLines(headers: Readonly<Record<string, string | number>>): string[] {
  const flat: string[] = [];
  for (const name in headers) flat.push(name, String(headers[name]));
  return flat;
}

/** Codes of rejections that judged the body itself. */
const BODY_CODES = new Set(['INVALID_REQUEST_BODY', 'MALFORMED_JSON', 'EMPTY_BODY', 'INVALID_ENCODING', 'INVALID_SEED', 'IDENTITY_MISMATCH', 'DUPLICATE_MEMBER_NAME']);

export function verdictOf(status: number, rejection: Pick<Rejection, 'code'> | undefined, responseHeaders: Readonly<Record<string, unknown>>): Verdict {
  if (rejection?.code === 'FORCED' || String(responseHeaders['preference-applied'] ?? '').includes('code=')) return 'forced';
  if (status < 400) return 'accepted';
  if (status === 401) return 'unauthenticated';
  if (status === 415) return 'unsupported-media-type';
  if (rejection && BODY_CODES.has(rejection.code)) return 'rejected-body';
  if (status >= 500) return 'failed';
  return 'rejected';
}

/** One side: header lines (flat name/value pairs, as `rawHeaders`) masked and cut at the side's bound, and the body. */
function message(flat: readonly string[], body: JournalBody | undefined, policy: JournalPolicy): JournalMessage {
  const headers: HeaderLine[] = [];
  let budget = policy.headerBytes;
  let index = 0;
  for (; index + 1 < flat.length; index += 2) {
    const name = flat[index] as string;
    const value = flat[index + 1] as string;
    const size = name.length + value.length;
    if (size > budget) {
      // A line larger than what is left: keep its start when there is room for one, then stop.
      if (budget > name.length + 16) {
        headers.push([name, maskHeader(name, `${cut(value, budget - name.length).text}…`, policy.credentials)]);
        index += 2;
      }
      break;
    }
    budget -= size;
    headers.push([name, maskHeader(name, value, policy.credentials)]);
  }
  const side: JournalMessage = { headers };
  if (index < flat.length) side.headersCut = (flat.length - index) >> 1;
  if (body) side.body = body;
  return side;
}

function requestBody(req: IncomingMessage, read: Buffer | undefined, policy: JournalPolicy): JournalBody | undefined {
  if (read) return read.length === 0 ? undefined : bufferBody(read, policy);
  if (!hasBody(req)) return undefined;
  const buffered = bufferedBody(req, policy);
  return buffered ? bufferBody(buffered, policy) : { bytes: declaredBytes(req), unread: true };
}

/** A body answered before it was read (a 401, 415, 413) that had already arrived whole: it is still buffered. */
function bufferedBody(req: IncomingMessage, policy: JournalPolicy): Buffer | undefined {
  if (req.complete && !req.readableFlowing && !req.readableEnded && req.readableLength > 0 && req.readableLength <= policy.bodyBytes * 16) {
    return readBuffered(req);
  }
  return undefined;
}

function declaredBytes(req: IncomingMessage): number {
  const bytes = Number(req.headers['content-length']);
  return Number.isSafeInteger(bytes) ? bytes : 0;
}

function bufferBody(body: Buffer, policy: JournalPolicy): JournalBody {
  const kept = body.length > policy.bodyBytes ? body.subarray(0, utf8Boundary(body, policy.bodyBytes)) : body;
  const text = isUtf8(kept) ? kept.toString('utf8') : undefined;
  const entry: JournalBody =
    text === undefined
      ? { bytes: body.length, text: body.subarray(0, policy.bodyBytes).toString('base64'), encoding: 'base64' }
      : { bytes: body.length, text: maskKnownSecrets(text, policy.credentials.secrets), encoding: 'utf8' };
  if (body.length > policy.bodyBytes) entry.cut = true;
  return entry;
}

function stringBody(body: string, policy: JournalPolicy): JournalBody {
  const bytes = Buffer.byteLength(body);
  // The mock writes its answers from values it made (JSON.stringify copies what it quotes): nothing to detach.
  if (bytes <= policy.bodyBytes) return { bytes, text: maskKnownSecrets(body, policy.credentials.secrets), encoding: 'utf8' };
  const { text } = cut(body, policy.bodyBytes);
  return { bytes, text: maskKnownSecrets(text, policy.credentials.secrets), encoding: 'utf8', cut: true };
}

/** The first `bytes` UTF-8 bytes of `text` (never half a character), as a new string that holds nothing of `text`. */
function cut(text: string, bytes: number): { text: string; cut: boolean } {
  if (text.length * 3 <= bytes || Buffer.byteLength(text) <= bytes) return { text, cut: false };
  const buffer = Buffer.from(text.slice(0, bytes), 'utf8');
  return { text: buffer.subarray(0, utf8Boundary(buffer, bytes)).toString('utf8'), cut: true };
}

/** The largest length ≤ `limit` that does not end inside a UTF-8 sequence. */
function utf8Boundary(buffer: Buffer, limit: number): number {
  if (limit >= buffer.length) return buffer.length;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that is cut.
  let back = limit;
  while (back > 0 && ((buffer[back] as number) & 0xc0) === 0x80) back--;
  return back;
}
