/**
 * CORS for browser clients on other origins. Authorization is named explicitly in the
 * allowed headers because a `*` there does not cover it (Fetch standard).
 *
 * Two policies: the API's routes are open to any origin unless --cors-origin restricts them (a
 * frontend on its dev server is the point of the mock); the admin routes, which read and wipe the
 * store, answer other origins only when --cors-origin names them, and same-origin pages (the
 * inspector) and clients that send no Origin (curl, scripts) otherwise.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const ALLOWED_REQUEST_HEADERS = 'authorization, content-type, prefer';
/** Headers a page may read from our answers (challenges, Allow, applied preferences). */
const EXPOSED_HEADERS = 'www-authenticate, allow, preference-applied, plant-store-violations';

export interface CorsPolicy {
  /** Allowed origins; undefined allows any origin. */
  origins: ReadonlySet<string> | undefined;
}

const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
});
const ORIGIN_NOT_ALLOWED: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });

/**
 * The CORS headers of an answer to a request from `origin` (only Vary when the origin is not
 * allowed). Returned as a value so the server can write them with its other headers in one go,
 * rather than with separate setHeader calls on the request path.
 */
export function corsHeaders(origin: string | undefined, policy: CorsPolicy): Readonly<Record<string, string>> {
  if (!policy.origins) return ANY_ORIGIN;
  if (origin === undefined || !policy.origins.has(origin)) return ORIGIN_NOT_ALLOWED;
  return { vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS };
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
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy): boolean {
  const headers = corsHeaders(req.headers.origin, policy);
  for (const name in headers) res.setHeader(name, headers[name] as string);
  return headers !== ORIGIN_NOT_ALLOWED;
}

/** Headers of a preflight answer for a route that accepts `allow`. */
export function preflightHeaders(allow: string): Record<string, string> {
  return {
    allow,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': '600',
  };
}
