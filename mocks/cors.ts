/**
 * CORS for browser clients on other origins. Authorization is named explicitly in the
 * allowed headers because a `*` there does not cover it (Fetch standard).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const ALLOWED_REQUEST_HEADERS = 'authorization, content-type, prefer';
/** Headers a page may read from our answers (challenges, Allow, applied preferences). */
const EXPOSED_HEADERS = 'www-authenticate, allow, preference-applied';

export interface CorsPolicy {
  /** Allowed origins; undefined allows any origin. */
  origins: ReadonlySet<string> | undefined;
}

/** Adds CORS headers to an answer; returns false when the origin is not allowed. */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy): boolean {
  if (!policy.origins) {
    res.setHeader('access-control-allow-origin', '*');
  } else {
    res.setHeader('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !policy.origins.has(origin)) return false;
    res.setHeader('access-control-allow-origin', origin);
  }
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  return true;
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
