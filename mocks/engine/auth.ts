/**
 * Bearer authentication as the spec's `bearerAuth` scheme demands (RFC 6750, with the
 * RFC 7235 rule that the scheme name is case-insensitive).
 */
import { reject, type Rejection } from '../errors.js';

/** RFC 6750 b64token: the characters a bearer token may have. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const CREDENTIALS = /^[ \t]*(\S+)(?:[ \t]+(.*?))?[ \t]*$/;

export interface BearerPolicy {
  realm: string;
  /** The accepted tokens; undefined accepts any well-formed token. */
  tokens: ReadonlySet<string> | undefined;
}

/** The token a request authenticates with, or the 401 it earns. */
export function checkBearer(header: string | undefined, policy: BearerPolicy): string | Rejection {
  const { realm, tokens } = policy;
  // The common case, `Bearer <token>` exactly, decided with one regex; anything else is parsed in full below.
  if (header !== undefined && header.startsWith('Bearer ')) {
    const token = header.slice(7);
    if (B64TOKEN.test(token) && (tokens === undefined || tokens.has(token))) return token;
  }
  if (header === undefined) return reject('MISSING_CREDENTIALS', { realm });
  const match = CREDENTIALS.exec(header);
  if (!match) return reject('MISSING_CREDENTIALS', { realm });
  const [, scheme = '', token = ''] = match;
  if (scheme.toLowerCase() !== 'bearer') return reject('WRONG_AUTH_SCHEME', { realm, scheme });
  if (token === '') return reject('EMPTY_TOKEN', { realm });
  if (!B64TOKEN.test(token)) {
    return reject('INVALID_TOKEN', { realm, reason: 'it has characters a bearer token cannot contain (RFC 6750)' });
  }
  if (tokens && !tokens.has(token)) {
    return reject('INVALID_TOKEN', {
      realm,
      reason: 'it is not one of the tokens this mock accepts (set with --tokens or MOCK_TOKENS)',
    });
  }
  return token;
}
