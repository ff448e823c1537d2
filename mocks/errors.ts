/**
 * Every rejection the mock can answer, in one catalogue. Each entry fixes the HTTP status and
 * writes the message a frontend developer reads; the body on the wire is the shape the spec
 * declares for that status (engine/error-answers.ts), else our Error, `{error: status, message}`.
 * Structured details go to the request journal.
 */

import { STATUS_CODES } from 'node:http';
import { isJsonMediaType } from '../openapi/media-types.js';
import { RESPONSE_WORDS } from '../openapi/judge/words.js';

/** The realm of the admin routes' challenge (the API's realm comes from the spec's title). */
export const ADMIN_REALM = 'plant-store-admin';

interface Definition<P> {
  status: number;
  message: (params: P) => string;
  headers?: (params: P) => Record<string, string> | undefined;
}

function define<P = void>(status: number, message: (params: P) => string, headers?: (params: P) => Record<string, string> | undefined): Definition<P> {
  return { status, message, headers };
}

/** How a request must present credentials, for messages: `Authorization: Bearer <token>`. */
export interface CredentialsHint {
  realm: string;
  /** The challenge's auth-scheme (RFC 7235): `Bearer`, `Basic`, `ApiKey`. */
  scheme: string;
  /** What to send, in words: `'Authorization: Bearer <token>'`. */
  expected: string;
}

const challenge = (realm: string, error?: string, description?: string, scheme = 'Bearer'): Record<string, string> => ({
  'www-authenticate': `${scheme} realm="${realm}"` + (error ? `, error="${error}"` : '') + (description ? `, error_description="${description}"` : ''),
});

/**
 * The challenge of a 401 for `scheme`, or none for an API key: no HTTP authentication scheme is
 * registered for one, and an invented `ApiKey` challenge would tell a client nothing it can act
 * on nor anything the real service is known to send; the message names the header, query
 * parameter or cookie to send instead.
 */
const challengeFor = (realm: string, scheme: string, error?: string, description?: string): Record<string, string> | undefined =>
  scheme === 'ApiKey' ? undefined : challenge(realm, error, description, scheme);

/** A client's text quoted in a message: at most 100 characters, so a message stays a sentence. */
export function quoted(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

export const errorCatalogue = {
  ROUTE_NOT_FOUND: define<{ method: string; path: string; api: string; operations: string; under?: { base: string; path: string } }>(
    404,
    // A title that ends in API (`Shop API`) is not made `Shop API API`.
    ({ method, path, api, operations, under }) =>
      under
        ? `No route matches ${quoted(method)} ${quoted(path)}: the spec's servers put the API under ${quoted(under.base)}, and the mock serves its paths from its own root, as Prism does. Send ${quoted(method)} ${quoted(under.path)} (a client's base URL is the mock's address alone).`
        : `No route matches ${quoted(method)} ${quoted(path)}. The ${/\bAPI$/i.test(api.trim()) ? api.trim() : `${api} API`} has ${operations}; the mock's own routes are under /__mock/.`,
  ),
  METHOD_NOT_ALLOWED: define<{ method: string; path: string; allow: string }>(
    405,
    ({ method, path, allow }) => `${quoted(method)} is not allowed on ${quoted(path)}; it accepts ${allow}.`,
    ({ allow }) => ({ allow }),
  ),
  MISSING_CREDENTIALS: define<CredentialsHint>(
    401,
    ({ expected }) => `The request has no Authorization header. Send ${expected}.`,
    ({ realm, scheme }) => challengeFor(realm, scheme),
  ),
  /** `sent` is the scheme's name only when it is a known one: an unknown first word may be the credential itself. */
  WRONG_AUTH_SCHEME: define<CredentialsHint & { sent: string | undefined }>(
    401,
    ({ sent, expected }) =>
      sent === undefined
        ? `The Authorization header does not start with an authentication scheme the mock knows (its value is not repeated: it may be a credential); this operation accepts only ${expected}. If you sent the credential alone, put the scheme before it.`
        : `The Authorization header uses the '${sent}' scheme; this operation accepts only ${expected}.`,
    ({ realm, scheme }) => challengeFor(realm, scheme),
  ),
  EMPTY_TOKEN: define<CredentialsHint>(
    401,
    ({ scheme, expected }) => `The Authorization header says '${scheme}' but carries no credentials. Send ${expected}.`,
    ({ realm, scheme }) => (scheme === 'Bearer' ? challenge(realm, 'invalid_request', 'The bearer token is missing') : challengeFor(realm, scheme)),
  ),
  INVALID_TOKEN: define<CredentialsHint & { reason: string }>(
    401,
    ({ scheme, reason }) => `The ${scheme === 'Bearer' ? 'bearer token was' : scheme === 'ApiKey' ? 'API key was' : `${scheme} credentials were`} rejected: ${reason}.`,
    ({ realm, scheme }) => (scheme === 'Bearer' ? challenge(realm, 'invalid_token', 'The access token is not accepted') : challengeFor(realm, scheme)),
  ),
  MISSING_API_KEY: define<CredentialsHint>(
    401,
    ({ expected }) => `The request carries no API key. Send ${expected}.`,
    ({ realm, scheme }) => challengeFor(realm, scheme),
  ),
  UNSUPPORTED_MEDIA_TYPE: define<{ contentType: string | undefined; accepted?: string }>(
    415,
    ({ contentType, accepted = 'application/json' }) =>
      `${contentType === undefined ? 'The request has no Content-Type' : `Content-Type '${quoted(contentType)}' is not supported`}. ` +
      // The fetch hint is for JSON alone: a form or multipart body is sent by a FormData, whose type the browser sets.
      (accepted.split("' or '").every(isJsonMediaType)
        ? `Send the body as JSON with 'Content-Type: ${accepted}' (fetch sends a string body as text/plain unless you set the header).`
        : `Send the body with 'Content-Type: ${accepted}', as the operation declares.`),
  ),
  NOT_ACCEPTABLE: define<{ accept: string; method: string; path: string; available: readonly string[]; notFromStore: readonly string[] }>(
    406,
    ({ accept, method, path, available, notFromStore }) =>
      `Accept '${quoted(accept)}' admits none of the media types ${quoted(method)} ${quoted(path)} answers in: ${available.map(quoted).join(', ') || 'none'}. ` +
      (notFromStore.length > 0 ? `The mock writes stored records as JSON only; the spec also declares ${notFromStore.map(quoted).join(', ')}, which it does not write from the store. ` : '') +
      `Ask for one of them, or send 'Accept: */*'.`,
  ),
  UNSUPPORTED_CHARSET: define<{ charset: string }>(415, ({ charset }) => `The body is declared as charset=${quoted(charset)}; JSON bodies must be UTF-8 ('application/json; charset=utf-8').`),
  PAYLOAD_TOO_LARGE: define<{ limit: number }>(
    413,
    ({ limit }) => `The request body is larger than the mock accepts (${limit} bytes; set --max-body to change it).`,
    () => ({ connection: 'close' }),
  ),
  EMPTY_BODY: define<{ operationId: string; schema: string; example: string }>(
    400,
    ({ operationId, schema, example }) => `The request has no body, and the body is required: ${operationId} needs a JSON ${schema}${example ? `, for example ${example}` : ''}.`,
  ),
  UNSUPPORTED_CONTENT_ENCODING: define<{ encoding: string }>(
    415,
    ({ encoding }) =>
      `The body is sent with Content-Encoding '${quoted(encoding)}'; the mock reads only bodies sent as they are (identity). Send the JSON uncompressed, without a Content-Encoding header.`,
    () => ({ 'accept-encoding': 'identity' }),
  ),
  INVALID_ENCODING: define(400, () => 'The request body is not valid UTF-8 text.'),
  MALFORMED_JSON: define<{ detail: string }>(400, ({ detail }) => `The request body is not valid JSON: ${quoted(detail)}.`),
  JSON_TOO_DEEP: define<{ limit: number }>(
    400,
    ({ limit }) => `The request body nests arrays and objects more than ${limit} levels deep, the most the mock reads (fields it ignores included). Send a flatter body.`,
  ),
  DUPLICATE_MEMBER_NAME: define<{ member: string; pointer: string; problems?: string[]; fields?: string[] }>(
    400,
    ({ member, pointer }) =>
      `The request body names the member ${quoted(JSON.stringify(member))} twice in one object (at ${quoted(pointer)}); readers differ on which one counts, so the mock refuses it. Send each member once.`,
  ),
  INVALID_REQUEST_BODY: define<{ schema: string; problems: string[]; more?: number; fields?: string[] }>(
    400,
    ({ schema, problems, more }) => `The request body is not a valid ${schema}: ${listed(problems, more)}.`,
  ),
  INVALID_PARAMETER: define<{ problems: string[]; more?: number; fields?: string[] }>(400, ({ problems, more }) => `The request's parameters do not fit the spec: ${listed(problems, more)}.`),
  IDENTITY_MISMATCH: define<{ property: string; inPath: string; inBody: string }>(
    400,
    ({ property, inPath, inBody }) => `The path names ${property} ${quoted(inPath)} but the body says ${quoted(inBody)}; they must be the same.`,
  ),
  INVALID_SEED: define<{ schema: string; problems: string[]; more?: number; fields?: string[] }>(
    400,
    ({ schema, problems, more }) => `The seed is not an array of valid ${schema}s: ${listed(problems, more)}.`,
  ),
  RECORD_NOT_FOUND: define<{ noun: string; property: string; key: string; listing: string }>(
    404,
    ({ noun, property, key, listing }) => `No ${noun} with ${property} ${quoted(key)} is stored. Create it first, or see what is stored with GET ${listing}.`,
  ),
  // A value of a path parameter naming a record only a list answers (mocks/engine/listed-records.ts), which its list never answers.
  RECORD_NOT_LISTED: define<{ parameter: string; value: string; list: string; property: string }>(
    404,
    ({ parameter, value, list, property }) =>
      `The path's ${parameter} ${quoted(value)} names no record: ${list} answers every one there is, and none has ${property} ${quoted(value)}. Take the value from its answer.`,
  ),
  // An admin read of a singleton document (`GET /__mock/settings`) no client has written: the API answers the spec's example.
  DOCUMENT_NOT_WRITTEN: define<{ path: string }>(
    404,
    ({ path }) =>
      `Nothing is stored at ${quoted(path)}: no PUT or PATCH has written that document (or a DELETE forgot it), so the API answers GET ${quoted(path)} with the spec's example. Write it through the API, or seed it with PUT /__mock${quoted(path)}.`,
  ),
  // The problem is the mock's own sentence (its list of statuses whole); what it quotes of the client is cut where it is built.
  INVALID_PREFER: define<{ problem: string }>(400, ({ problem }) => `The Prefer header cannot be honoured: ${problem}.`),
  DUPLICATE_ID: define<{ ids: string[]; noun: string; property: string; listing: string; more?: number }>(409, ({ ids, noun, property, listing, more }) =>
    ids.length === 1 && !more
      ? `A ${noun} with ${property} ${quoted(ids[0] ?? '')} already exists; ${property}s must be unique. Use another ${property}, or reset the store with DELETE ${listing}.`
      : `${capitalised(noun)}s with ${property}s ${listed(ids.map(quoted), more, ', ')} already exist or repeat; ${property}s must be unique. Nothing was stored.`,
  ),
  INVALID_ADMIN_QUERY: define<{ route: string; problems: string[]; more?: number }>(400, ({ route, problems, more }) => `The query of ${route} cannot be used: ${listed(problems, more)}.`),
  JOURNAL_ENTRY_NOT_FOUND: define<{ seq: number }>(404, ({ seq }) => `Request #${seq} is not in the journal: it was never recorded, or newer requests pushed it out (see GET /__mock/requests).`),
  NOTHING_TO_EXPORT: define<{ reasons: string[] }>(
    404,
    ({ reasons }) =>
      `The journal holds no request a contract case can replay${reasons.length ? ` (${listed(reasons.slice(0, 10), Math.max(0, reasons.length - 10))})` : ''}. ` +
      'Send requests to the API first; accepted ones, rejected bodies, unauthenticated requests and unsupported media types become cases.',
  ),
  ADMIN_UNAUTHORIZED: define<{ detail: string }>(
    401,
    ({ detail }) => `The mock's admin routes need 'Authorization: Bearer <admin token>' (see --admin-token), but ${detail}.`,
    () => challenge(ADMIN_REALM, 'invalid_token'),
  ),
  FORCED: define<{ status: number; title: string }>(
    0, // the forced status itself, see forcedRejection
    ({ status, title }) => `Forced by 'Prefer: code=${status}': ${title}.`,
  ),
  HOST_NOT_ALLOWED: define<{ host: string }>(
    403,
    ({ host }) =>
      `The mock does not answer requests for the host '${quoted(host)}': it answers its own address, localhost and other loopback names, ` +
      'and the hosts given with --allowed-hosts, so that a web page cannot reach it through DNS rebinding. ' +
      `If you reach the mock by this name on purpose, start it with --allowed-hosts ${quoted(host.replace(/:\d*$/, ''))} (or MOCK_ALLOWED_HOSTS).`,
  ),
  ADMIN_ORIGIN_NOT_ALLOWED: define<{ origin: string }>(
    403,
    ({ origin }) =>
      `The mock's admin routes do not answer pages from ${quoted(origin)}: a page of another origin could read and wipe the store. ` +
      `They answer the inspector, clients that send no Origin (curl, scripts) and the origins of --cors-origin; start the mock with --cors-origin ${quoted(origin)} (or MOCK_CORS_ORIGIN) to allow this one.`,
  ),
  MISSING_HOST: define(400, () => 'The request has no Host header, which every HTTP/1.1 request must carry (RFC 9112, section 3.2).'),
  EXPECTATION_FAILED: define<{ expect: string }>(417, ({ expect }) => `The mock cannot meet 'Expect: ${quoted(expect)}'; the only expectation it knows is 100-continue.`),
  CONNECT_NOT_SUPPORTED: define(501, () => 'The mock is an origin server, not a proxy: it does not support CONNECT. Send your requests to it directly.'),
  MALFORMED_HTTP: define<{ detail: string }>(400, ({ detail }) => `The request is not well-formed HTTP/1.1 (${detail}); the connection is closed.`),
  HEADERS_TOO_LARGE: define(431, () => 'The request headers are larger than the server accepts; the connection is closed.'),
  REQUEST_TIMEOUT: define(408, () => 'The request was not received completely in time; the connection is closed.'),
  // The store's own words name where it is (a Redis URL, a file's path): they go to the log, never to a client.
  STORE_UNAVAILABLE: define<{ maybeApplied?: boolean }>(
    503,
    ({ maybeApplied }) =>
      maybeApplied
        ? `The mock's store did not acknowledge this change. It may or may not have been applied; ` +
          `the mock reconnects by itself, and once it answers again, look before sending the change again (a repeated create that was applied gets 409).`
        : `The mock's store is unavailable. Nothing was stored or read; the mock reconnects by itself, send the request again shortly.`,
    () => ({ 'retry-after': '1' }),
  ),
  STORAGE_FAILED: define<{ code: string | undefined; backend?: 'disk' | 'redis' }>(500, ({ code, backend }) =>
    backend === 'redis'
      ? `The mock's Redis store refused this request${code ? ` (${quoted(code)})` : ''}. Nothing was changed; the mock's log says why. Check what else writes to the mock's keys in Redis, then send the request again.`
      : `The mock could not keep this change${code ? ` (${quoted(code)})` : ''}. Nothing was stored; the mock's log says why. Check the disk, then send the request again.`,
  ),
  // Proxy mode (--proxy, mocks/proxy/): the upstream failing, and the verdicts on what passed through.
  UPSTREAM_FAILED: define<{ upstream: string; detail: string }>(
    502,
    ({ upstream, detail }) => `The upstream ${upstream} failed before its answer was complete: ${detail}. Check that the service behind --proxy is up and reachable from the mock.`,
  ),
  UPSTREAM_CONNECT_TIMEOUT: define<{ upstream: string; ms: number }>(
    504,
    ({ upstream, ms }) => `The upstream ${upstream} did not accept a connection within ${ms} ms (--proxy-connect-timeout). Check that the service behind --proxy is up and reachable from the mock.`,
  ),
  UPSTREAM_TIMEOUT: define<{ upstream: string; ms: number }>(
    504,
    ({ upstream, ms }) => `The upstream ${upstream} did not answer completely within ${ms} ms (--proxy-timeout); the request was abandoned.`,
  ),
  PROXY_LOOP: define<{ upstream: string }>(
    502,
    ({ upstream }) => `The upstream ${upstream} sent this request back to this mock (its Via header names this mock): --proxy must name the real service, not the mock itself.`,
  ),
  // The judge's verdicts on an answer (openapi/judge/): its words, for the proxy's upstream, the Prism edge and --self-check alike.
  UPSTREAM_UNDECLARED_STATUS: define(502, RESPONSE_WORDS.UPSTREAM_UNDECLARED_STATUS),
  UPSTREAM_MEDIA_TYPE: define(502, RESPONSE_WORDS.UPSTREAM_MEDIA_TYPE),
  UPSTREAM_UNDECLARED_BODY: define(502, RESPONSE_WORDS.UPSTREAM_UNDECLARED_BODY),
  UPSTREAM_MALFORMED_BODY: define(502, RESPONSE_WORDS.UPSTREAM_MALFORMED_BODY),
  UPSTREAM_DUPLICATE_MEMBER_NAME: define(502, RESPONSE_WORDS.UPSTREAM_DUPLICATE_MEMBER_NAME),
  UPSTREAM_INVALID_BODY: define(502, RESPONSE_WORDS.UPSTREAM_INVALID_BODY),
  UPSTREAM_SCHEMA_ACCEPTS_NOTHING: define(502, RESPONSE_WORDS.UPSTREAM_SCHEMA_ACCEPTS_NOTHING),
  UPSTREAM_WRITE_ONLY: define(502, RESPONSE_WORDS.UPSTREAM_WRITE_ONLY),
  UPSTREAM_MISSING_HEADER: define(502, RESPONSE_WORDS.UPSTREAM_MISSING_HEADER),
  UPSTREAM_INVALID_HEADER: define(502, RESPONSE_WORDS.UPSTREAM_INVALID_HEADER),
  NOT_VALIDATED: define<{ what: string; reason: string }>(502, ({ what, reason }) => `The ${what} was not checked against the spec (${reason}); it was passed on unchanged.`),
  UPSTREAM_VIOLATION: define<{ violation: string; more: number }>(
    502,
    ({ violation, more }) =>
      `The upstream's answer does not fit the spec, and --proxy-strict replaces such answers: ${violation.replace(/[.]$/, '')}` +
      `${more ? ` (and ${more} more in the plant-store-violations header and the journal)` : ''}.`,
  ),
  NO_STORE_IN_PROXY_MODE: define<{ path: string; upstream: string }>(
    404,
    ({ path, upstream }) => `The mock keeps no records in proxy mode, so ${path} is not served: the upstream ${upstream} keeps them. GET /__mock/requests shows what passed through.`,
  ),
  // Only the failure's class: its message may quote what the request carried, a credential included.
  /** The spec gives no example for the answer and nothing generated from its schema is valid against it (engine/generated-bodies.ts). */
  NO_VALID_BODY: define<{ status: number; contentType: string }>(
    500,
    ({ status, contentType }) =>
      `The spec gives no example for this operation's ${status} answer (${quoted(contentType)}), and the mock could not generate a body its schema accepts (the mock's log says why). Add an example to that response in the spec.`,
  ),
  INTERNAL: define<{ kind: string }>(
    500,
    ({ kind }) => `The mock failed unexpectedly while handling this request (${kind}; the mock's log has the details). It is still serving; this is a bug in the mock, please report it.`,
  ),
} as const;

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** A bounded list for a message: `a; b; c (and 4 more)`. */
function listed(items: readonly string[], more = 0, separator = '; '): string {
  return items.join(separator) + (more ? ` (and ${more} more)` : '');
}

export type ErrorCode = keyof typeof errorCatalogue;
type ParamsOf<C extends ErrorCode> = (typeof errorCatalogue)[C] extends Definition<infer P> ? P : never;

/** A decided rejection: what goes on the wire, plus details for the journal. */
export interface Rejection {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
  readonly headers: Record<string, string> | undefined;
  /** Field-level problems, kept in the journal (the wire body stays exactly Error). */
  readonly problems?: readonly string[];
  /** The JSON pointer each problem concerns, index by index (the inspector shows it by the field). */
  readonly fields?: readonly string[];
}

export function reject<C extends ErrorCode>(code: C, ...[params]: ParamsOf<C> extends void ? [] : [ParamsOf<C>]): Rejection {
  const definition = errorCatalogue[code] as Definition<ParamsOf<C>>;
  const p = params as ParamsOf<C>;
  return {
    code,
    status: definition.status,
    message: definition.message(p),
    headers: definition.headers?.(p),
    problems: (p as { problems?: string[] } | undefined)?.problems,
    fields: (p as { fields?: string[] } | undefined)?.fields,
  };
}

/** What INTERNAL may say of a failure: its class's name (`TypeError`), never its message. */
export function failureKind(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : '';
  if (!/^[A-Za-z][A-Za-z0-9]{0,40}$/.test(name)) return 'an unexpected throw';
  return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}

export function isRejection(value: unknown): value is Rejection {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value && 'message' in value;
}

/** Our Error body for a rejection, `{error, message}`: the seed spec's Error, and the shape where a spec declares none. */
export function errorBody(rejection: Pick<Rejection, 'status' | 'message'>): string {
  return JSON.stringify({ error: rejection.status, message: rejection.message });
}

/**
 * Error statuses `Prefer: code=N` can force on any operation: every rejection of the mock's own
 * table. An operation's declared statuses are forceable too (see engine/prefer.ts).
 */
export const FORCEABLE_STATUSES = [400, 401, 404, 405, 406, 409, 413, 415, 500, 502, 503, 504] as const;

const forcedTitles: Record<number, string> = {
  400: 'the request would be rejected as invalid',
  401: 'the request would be rejected as unauthenticated',
  404: 'the route would not be found',
  405: 'the method would not be allowed',
  406: 'no media type the request accepts would be answered',
  409: 'the plant would conflict with one already stored',
  413: 'the body would be too large',
  415: 'the content type would be unsupported',
  500: 'the service would fail unexpectedly',
  502: 'the upstream behind the proxy would fail or answer outside the spec',
  503: 'the service would be unavailable',
  504: 'the upstream behind the proxy would not answer in time',
};

/**
 * The example rejection for a forced error status, with the headers that status carries: the
 * challenge of the operation's scheme for a 401, the route's methods for a 405.
 */
export function forcedRejection(status: number, route: { allow: string; challengeScheme: string | undefined; realm: string }): Rejection {
  const headers: Record<string, string> | undefined =
    status === 401
      ? challengeFor(route.realm, route.challengeScheme ?? 'Bearer', route.challengeScheme === 'Bearer' || route.challengeScheme === undefined ? 'invalid_token' : undefined)
      : status === 405
        ? { allow: route.allow }
        : status === 503
          ? { 'retry-after': '1' }
          : undefined;
  return {
    code: 'FORCED',
    status,
    // A status outside the mock's own table (a 418 a `4XX` covers) is named by its phrase.
    message: errorCatalogue.FORCED.message({ status, title: forcedTitles[status] ?? `the answer ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''} the spec declares` }),
    headers,
  };
}
