/**
 * CORS for browser clients on other origins. Authorization is named explicitly in the
 * allowed headers because a `*` there does not cover it (Fetch standard); so is every header the
 * spec declares (its header parameters, its API key headers, its response headers), as a page's
 * fetch needs them named (specCorsGrant).
 *
 * Two policies: the API's routes are open to any origin unless --cors-origin restricts them (a
 * frontend on its dev server is the point of the mock); the admin routes, which read and wipe the
 * store, answer other origins only when --cors-origin names them, and same-origin pages (the
 * inspector) and clients that send no Origin (curl, scripts) otherwise.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompiledContract } from '../../openapi/operations/model.js';

/** The request headers every answer of ours may need: credentials, bodies, `Prefer`. */
const OUR_REQUEST_HEADERS = ['authorization', 'content-type', 'prefer'];
/** Headers a page may read from our answers (challenges, Allow, applied preferences). */
const OUR_EXPOSED_HEADERS = ['www-authenticate', 'allow', 'preference-applied', 'plant-store-violations', 'plant-store-reason'];

/** An RFC 9110 field name: a hostile spec's name (a CR, a comma) never reaches a header value. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** At most this many of a spec's names in each list: a spec of a thousand header parameters still gets a header of a few kilobytes. */
const MOST_SPEC_NAMES = 100;
/** Never worth naming: the Fetch standard never lets a page read Set-Cookie, nor set Cookie or Host. */
const NOT_NAMED = new Set(['set-cookie', 'set-cookie2', 'cookie', 'host']);

/**
 * What pages may send and read, for one spec: our headers, and the ones the spec declares.
 * Made once per spec (again on --watch), so no answer builds it.
 */
export interface CorsGrant {
  /** `Access-Control-Allow-Headers` of a preflight. */
  requestHeaders: string;
  /** `Access-Control-Expose-Headers` of every answer. */
  exposedHeaders: string;
  /** The CORS headers of every answer when any origin is allowed. */
  anyOrigin: Readonly<Record<string, string>>;
}

function names(ours: readonly string[], spec: Iterable<string>): string {
  const named = new Set(ours);
  let taken = 0;
  for (const name of spec) {
    const lower = name.toLowerCase();
    if (taken >= MOST_SPEC_NAMES || !FIELD_NAME.test(lower) || NOT_NAMED.has(lower) || named.has(lower)) continue;
    named.add(lower);
    taken++;
  }
  return [...named].join(', ');
}

/** A grant of our headers and `requestHeaders`/`responseHeaders` (names as a spec writes them). */
export function corsGrant(requestHeaders: Iterable<string> = [], responseHeaders: Iterable<string> = []): CorsGrant {
  const exposedHeaders = names(OUR_EXPOSED_HEADERS, responseHeaders);
  return {
    requestHeaders: names(OUR_REQUEST_HEADERS, requestHeaders),
    exposedHeaders,
    anyOrigin: Object.freeze({ 'access-control-allow-origin': '*', 'access-control-expose-headers': exposedHeaders }),
  };
}

/** Our headers only: the open admin routes (health, the inspector's files), and answers before any spec is read. */
export const OUR_GRANT: CorsGrant = Object.freeze(corsGrant());

/**
 * The admin routes that hold data, for the origins they answer at all (`AdminCorsPolicy`): a
 * listing's total and next page, which a page on an allowed origin reads as the inspector does.
 */
export const ADMIN_GRANT: CorsGrant = Object.freeze(corsGrant([], ['x-total-count', 'link']));

/**
 * The grant of a whole spec: a page may send every header parameter and every API key header
 * any of its operations declares, and read every header any of its responses declares. The
 * whole spec rather than the path's operations: a frontend sends its tenant header or API key
 * with every call, and a preflight that refused it at a path that does not declare it would
 * block in the browser a request the real service most likely accepts; which headers an
 * operation takes is the request's judge's to say, not the browser's.
 */
export function specCorsGrant(contract: CompiledContract): CorsGrant {
  const sent: string[] = [];
  const read: string[] = [];
  for (const scheme of contract.securitySchemes.values()) if (scheme.kind === 'api-key' && scheme.in === 'header') sent.push(scheme.parameter);
  for (const operation of contract.operations.values()) {
    for (const parameter of operation.parameters) if (parameter.in === 'header') sent.push(parameter.name);
    for (const response of operation.responses.values()) read.push(...response.headers);
    for (const response of operation.ranges?.values() ?? []) read.push(...response.headers);
  }
  return corsGrant(sent, read);
}

export interface CorsPolicy {
  /** Allowed origins; undefined allows any origin. */
  origins: ReadonlySet<string> | undefined;
}

const ORIGIN_NOT_ALLOWED: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });

/**
 * The CORS headers of an answer to a request from `origin` (only Vary when the origin is not
 * allowed), exposing what `grant` names. Returned as a value so the server can write them with its
 * other headers in one go, rather than with separate setHeader calls on the request path.
 */
export function corsHeaders(origin: string | undefined, policy: CorsPolicy, grant: CorsGrant = OUR_GRANT): Readonly<Record<string, string>> {
  if (!policy.origins) return grant.anyOrigin;
  if (origin === undefined || !policy.origins.has(origin)) return ORIGIN_NOT_ALLOWED;
  return { vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': grant.exposedHeaders };
}

/**
 * The admin routes' policy: always a list, never "any origin". Other origins are allowed only
 * when --cors-origin names them: an empty list allows none but the mock's own.
 */
export interface AdminCorsPolicy extends CorsPolicy {
  origins: ReadonlySet<string>;
}

/** The admin routes' policy: the origins --cors-origin names, none when it names none. */
export function adminCorsPolicy(origins: readonly string[] | undefined): AdminCorsPolicy {
  return { origins: new Set(origins ?? []) };
}

/**
 * The origin of a request the admin routes must refuse, or undefined: a request with no Origin
 * (not from a page's script, or a same-origin GET), from the mock's own origin (`http://` + the
 * host the request names), or from an origin `policy` lists is answered.
 */
export function refusedAdminOrigin(origin: string | undefined, host: string | undefined, policy: AdminCorsPolicy): string | undefined {
  if (origin === undefined || policy.origins.has(origin)) return undefined;
  if (host !== undefined && origin.length === host.length + 7 && origin.toLowerCase() === `http://${host.toLowerCase()}`) return undefined;
  return origin;
}

/** Adds CORS headers to an answer; returns false when the origin is not allowed. */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy, grant: CorsGrant = OUR_GRANT): boolean {
  const headers = corsHeaders(req.headers.origin, policy, grant);
  for (const name in headers) res.setHeader(name, headers[name] as string);
  return headers !== ORIGIN_NOT_ALLOWED;
}

/** Headers of a preflight answer for a route that accepts `allow`, allowing the headers `grant` names. */
export function preflightHeaders(allow: string, grant: CorsGrant = OUR_GRANT): Record<string, string> {
  return {
    allow,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': grant.requestHeaders,
    'access-control-max-age': '600',
  };
}
