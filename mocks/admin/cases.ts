/**
 * `GET /__mock/requests?format=cases`: the distinct requests frontends sent to the spec's
 * operations, as a case file in the fixture format (fixtures/fixture-file.schema.json), so that
 * `npm run contract -- --cases FILE` runs the frontends' real request shapes against a provider.
 *
 * Each case's expectation is the mock's verdict (accepted, rejected-body, unauthenticated,
 * unsupported-media-type); the id is replaced by a fresh-id placeholder of the same kind (so a
 * case can run twice); credentials are never copied: the case says which kind of credential
 * was sent (the provider's, none, one it never issued, another scheme) and the suite supplies it.
 * What a case cannot express (another operation where the format names none, a body the journal
 * cut or never read, a forced answer) is left out and counted in the file's description.
 */
import { readFileSync } from 'node:fs';
import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless, type LosslessNumber } from 'lossless-json';
import { FIXTURE_SCHEMA_PATH } from '../../fixtures/index.js';
import { ID_RANGES, type IdKind } from '../../fixtures/ids.js';
import { parseExactJson, integerOfLiteral } from '../../spec/exact-json.js';
import type { MockContext } from '../engine/context.js';
import type { Collection } from '../engine/resources.js';
import { reject } from '../errors.js';
import { isKnownScheme } from '../http/credentials.js';
import { rejected, type Answer } from '../http/answer.js';
import type { JournalEntry, JournalQuery, RequestJournal, Verdict } from './journal.js';

/** The expectations of the fixture format, by the verdict they come from. */
type Expectation = 'accepted' | 'rejected-body' | 'unauthenticated' | 'unsupported-media-type';
const EXPECTATIONS: ReadonlySet<Verdict> = new Set<Verdict>(['accepted', 'rejected-body', 'unauthenticated', 'unsupported-media-type']);

type Auth = 'bearer' | 'none' | 'invalid-token' | { authorization: string };
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

export interface CasesExport {
  file: CaseFile | undefined;
  /** Requests left out, by reason. */
  skipped: Map<string, number>;
}

/** What the fixture format can say beyond POST /plants (read from its schema, which another change may extend). */
interface FormatCapabilities {
  methodAndPath: boolean;
  origin: boolean;
}

function capabilities(): FormatCapabilities {
  const schema = JSON.parse(readFileSync(FIXTURE_SCHEMA_PATH, 'utf8')) as {
    $defs?: { request?: { properties?: Record<string, unknown> }; case?: { properties?: Record<string, unknown> } };
  };
  const request = schema.$defs?.request?.properties ?? {};
  return { methodAndPath: 'method' in request && 'path' in request, origin: 'origin' in (schema.$defs?.case?.properties ?? {}) };
}

const PAGE = 500;
/** Placeholder for the id while the body is serialised (the format's own is {{id}}). */
const ID_MARK = '\u0000plant-store-id\u0000';

/** Every distinct, expressible request of the journal matching `query`, as one case file. */
export async function exportCases(journal: RequestJournal, context: MockContext, query: JournalQuery, now = new Date()): Promise<CasesExport> {
  const format = capabilities();
  const { engine } = context;
  const primary = engine.primary;
  const skipped = new Map<string, number>();
  const skip = (reason: string): void => void skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const seen = new Set<string>();
  const cases: ExportedCase[] = [];
  const entries: JournalEntry[] = [];
  // Oldest first, so the cases read in the order the frontend sent them.
  for (let before = query.before, more = true; more; ) {
    const page = await journal.entries({ ...query, before, whole: true, limit: PAGE });
    entries.push(...page.entries);
    more = page.more && page.entries.length > 0;
    before = page.entries.at(-1)?.seq;
  }
  entries.reverse();
  for (const entry of entries) {
    const made = caseOf(entry, context, primary, format);
    if (typeof made === 'string') {
      skip(made);
      continue;
    }
    const key = JSON.stringify({ ...made.request, expect: made.expect });
    if (seen.has(key)) continue;
    seen.add(key);
    const operation = (entry.operationId ?? 'request').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    made.name = `recorded-${operation || 'request'}-${made.expect}-${entry.seq}`;
    cases.push(made);
  }
  if (!cases.length) return { file: undefined, skipped };
  const left = [...skipped].map(([reason, count]) => `${count} ${reason}`).join('; ');
  return {
    file: {
      description:
        `What frontends sent to the ${engine.contract.title} mock, exported from its journal on ${now.toISOString()}: ` +
        `${cases.length} distinct request${cases.length === 1 ? '' : 's'}, each expected to get what the mock answered.` +
        (left ? ` Left out: ${left}.` : ''),
      cases,
    },
    skipped,
  };
}

/** The answer of `?format=cases`: the case file as a download, or a 404 saying why there is none. */
export async function casesAnswer(context: MockContext, query: JournalQuery): Promise<Answer> {
  const { file, skipped } = await exportCases(context.journal, context, query);
  if (!file) {
    const reasons = [...skipped].map(([reason, count]) => `${count} ${reason}`);
    return rejected(reject('NOTHING_TO_EXPORT', { reasons }));
  }
  return {
    status: 200,
    body: `${stringifyLossless(file, undefined, 2) as string}\n`,
    headers: {
      'content-type': 'application/json',
      'content-disposition': 'attachment; filename="frontend-requests.cases.json"',
      'cache-control': 'no-store',
    },
  };
}

/** The case for one journal entry, or why there is none. */
function caseOf(entry: JournalEntry, context: MockContext, primary: Collection | undefined, format: FormatCapabilities): ExportedCase | string {
  if (entry.path === '/__mock' || entry.path.startsWith('/__mock/')) return "requests to the mock's own routes";
  if (entry.operationId === undefined) return 'requests to no operation of the spec';
  if (!EXPECTATIONS.has(entry.verdict)) return entry.verdict === 'forced' ? "answers forced with 'Prefer: code='" : `answers the contract has no expectation for (${entry.status}${entry.code ? ` ${entry.code}` : ''})`;
  const expect = entry.verdict as Expectation;
  const operation = context.engine.routes.operations.find((o) => o.operationId === entry.operationId);
  if (!operation) return 'requests to an operation the spec no longer has';
  const isPrimaryCreate = primary !== undefined && operation.operationId === primary.create.operationId;
  if (!isPrimaryCreate && !format.methodAndPath) return `requests to ${operation.method} ${operation.path} (the fixture format names no method or path yet)`;
  // An item's id in the path would collide on the second run: the format has no fresh-id placeholder for a path.
  if (!isPrimaryCreate && expect === 'accepted' && operation.path.includes('{')) return `accepted requests to ${operation.method} ${operation.path} (no fresh-id placeholder for a path)`;
  const header = (name: string): string | undefined => entry.request.headers.find(([n]) => n.toLowerCase() === name)?.[1];

  const body = entry.request.body;
  if (body?.unread) return 'requests whose body the mock answered without reading';
  if (body?.cut) return 'requests whose body is larger than the journal keeps';
  if (body && body.encoding !== 'utf8') return 'requests whose body is not UTF-8 text';
  const exported = exportBody(body?.text, primary, expect);
  if (typeof exported === 'string') return exported;

  let contentType: string | null | undefined;
  const sentType = header('content-type');
  if (expect === 'unsupported-media-type') contentType = sentType ?? null;
  else if (sentType === undefined && !('empty' in exported.body)) contentType = null;
  else if (sentType !== undefined && !/^application\/json\s*(;|$)/i.test(sentType)) contentType = sentType;
  const auth = authOf(entry, header('authorization'));
  // Keys in the order the bundled case files write them.
  const request: ExportedCase['request'] = {
    ...(isPrimaryCreate ? {} : { method: entry.method, path: entry.path + (entry.query ? `?${entry.query}` : '') }),
    ...(auth === 'bearer' ? {} : { auth }),
    ...(contentType === undefined ? {} : { contentType }),
    ...(exported.id ? { id: exported.id } : {}),
    body: exported.body,
  };
  // A valid body the suite sends under the wrong credentials or media type must stay valid: judge it as the mock would.
  if ((expect === 'unauthenticated' || expect === 'unsupported-media-type') && !validBody(exported.text, primary)) {
    return `${expect} requests whose body is not a valid ${primary?.resource ?? 'body'} either`;
  }

  const made: ExportedCase = {
    name: '',
    description:
      `${entry.method} ${entry.path} as a frontend sent it (journal #${entry.seq}, ${entry.at}); the mock answered ${entry.status}` +
      (entry.code ? ` ${entry.code}: ${cutText(entry.message ?? '', 200)}` : '.'),
    expect,
    request,
  };
  if (format.origin) made.origin = `mock journal #${entry.seq}, ${entry.at}${entry.replica ? `, replica ${entry.replica}` : ''}`;
  return made;
}

/** The credential the request carried, as the fixture format says it: never the credential itself. */
function authOf(entry: JournalEntry, authorization: string | undefined): Auth {
  if (entry.verdict !== 'unauthenticated') return 'bearer';
  if (authorization === undefined || entry.code === 'MISSING_CREDENTIALS' || entry.code === 'MISSING_API_KEY') return 'none';
  if (entry.code === 'INVALID_TOKEN') return 'invalid-token';
  // The journal holds the scheme and a mask: keep the scheme, let the suite put its own token behind it.
  const scheme = /^\s*(\S+)/.exec(authorization)?.[1];
  if (entry.code === 'EMPTY_TOKEN') return { authorization: scheme && isKnownScheme(scheme) ? `${scheme} ` : '' };
  if (scheme && isKnownScheme(scheme)) return { authorization: `${scheme} {{token}}` };
  return { authorization: '{{token}}' };
}

/** The body with its identity replaced by the fresh-id placeholder, or why it cannot be a case. */
function exportBody(
  text: string | undefined,
  collection: Collection | undefined,
  expect: Expectation,
): { body: Body; id?: IdKind; text: string | undefined } | string {
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
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const literal = isObject ? (value as Record<string, unknown>)[property] : undefined;
  const id = isLosslessNumber(literal) ? integerOfLiteral((literal as LosslessNumber).value) : undefined;
  if (!isObject || id === undefined) {
    if (expect === 'accepted') return 'accepted requests without an integer id';
    return { body: { text: stringifyLossless(value) as string }, text: stringifyLossless(value) as string };
  }
  const kind = idKindOf(id);
  const object = value as Record<string, unknown>;
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

function validBody(text: string | undefined, collection: Collection | undefined): boolean {
  if (text === undefined || !collection?.body.validate) return false;
  try {
    return collection.body.validate(parseExactJson(text)) === true;
  } catch {
    return false;
  }
}

function cutText(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
