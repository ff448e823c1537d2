/**
 * Credentials as the spec's security schemes ask for them, one check per kind of scheme:
 * HTTP bearer (RFC 6750, with RFC 7235's case-insensitive scheme name; oauth2 and openIdConnect
 * send bearer tokens too), HTTP basic (RFC 7617), and an API key in a header, the query or a
 * cookie. `--tokens` restricts whichever credential the scheme carries. Each check is a plain
 * function of the request.
 */
import type { SecurityScheme } from '../../openapi/operations/model.js';
import { cookieValue } from '../../openapi/operations/parameters.js';
import { reject, type CredentialsHint, type Rejection } from '../errors.js';
import { isKnownScheme } from '../http/credentials.js';

/** RFC 6750 b64token: the characters a bearer token may have. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const CREDENTIALS = /^[ \t]*(\S+)(?:[ \t]+(.*?))?[ \t]*$/;

export interface CredentialPolicy {
  realm: string;
  /** The accepted credentials (tokens, `user:password` pairs, API keys); undefined accepts any well-formed one. */
  tokens: ReadonlySet<string> | undefined;
}

/** What a security check says: the credential that satisfied it, or the 401 it earns. */
export type SecurityOutcome = { credential: string; error?: undefined } | { error: Rejection };

/** What a security check reads of a request. */
export interface CredentialSource {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The query's parameters (a repeated one as its values), read only by an API key in the query. */
  query?: Readonly<Record<string, string | string[] | undefined>>;
}

const BEARER_HINT = (realm: string): CredentialsHint => ({ realm, scheme: 'Bearer', expected: "'Authorization: Bearer <token>'" });
const notListed = (what: string): string => `it is not one of the ${what} this mock accepts (set with --tokens or MOCK_TOKENS)`;

/** The token a request authenticates with, or the 401 it earns. */
export function checkBearer(header: string | undefined, policy: CredentialPolicy): string | Rejection {
  const { tokens } = policy;
  // The common case, `Bearer <token>` exactly, decided with one regex; anything else is parsed in full below.
  if (header !== undefined && header.startsWith('Bearer ')) {
    const token = header.slice(7);
    if (B64TOKEN.test(token) && (tokens === undefined || tokens.has(token))) return token;
  }
  const hint = BEARER_HINT(policy.realm);
  const parsed = parseAuthorization(header, hint);
  if ('code' in parsed) return parsed;
  const { token } = parsed;
  if (!B64TOKEN.test(token)) return reject('INVALID_TOKEN', { ...hint, reason: 'it has characters a bearer token cannot contain (RFC 6750)' });
  if (tokens && !tokens.has(token)) return reject('INVALID_TOKEN', { ...hint, reason: notListed('tokens') });
  return token;
}

/** The `user:password` of HTTP basic credentials (RFC 7617), or the 401 they earn. */
function checkBasic(header: string | undefined, policy: CredentialPolicy): string | Rejection {
  const hint: CredentialsHint = { realm: policy.realm, scheme: 'Basic', expected: "'Authorization: Basic <base64 of user:password>'" };
  const parsed = parseAuthorization(header, hint);
  if ('code' in parsed) return parsed;
  const decoded = /^[A-Za-z0-9+/]+=*$/.test(parsed.token) ? Buffer.from(parsed.token, 'base64').toString('utf8') : '';
  if (!decoded.includes(':')) return reject('INVALID_TOKEN', { ...hint, reason: 'they are not the base64 of user:password (RFC 7617)' });
  if (policy.tokens && !policy.tokens.has(decoded)) return reject('INVALID_TOKEN', { ...hint, reason: notListed('user:password pairs') });
  return decoded;
}

/** The API key a request carries where `scheme` says, or the 401 it earns. */
function checkApiKey(value: string | undefined, where: string, policy: CredentialPolicy): string | Rejection {
  const hint: CredentialsHint = { realm: policy.realm, scheme: 'ApiKey', expected: where };
  if (value === undefined || value.trim() === '') return reject('MISSING_API_KEY', hint);
  if (policy.tokens && !policy.tokens.has(value.trim())) return reject('INVALID_TOKEN', { ...hint, reason: notListed('keys') });
  return value.trim();
}

/** The scheme name and credentials of an Authorization header that names `hint.scheme`. */
function parseAuthorization(header: string | undefined, hint: CredentialsHint): { token: string } | Rejection {
  if (header === undefined) return reject('MISSING_CREDENTIALS', hint);
  const match = CREDENTIALS.exec(header);
  if (!match) return reject('MISSING_CREDENTIALS', hint);
  const [, scheme = '', token = ''] = match;
  // Only a known scheme's name is repeated: a first word that is none may be the credential itself.
  if (scheme.toLowerCase() !== hint.scheme.toLowerCase()) return reject('WRONG_AUTH_SCHEME', { ...hint, sent: isKnownScheme(scheme) ? scheme : undefined });
  if (token === '') return reject('EMPTY_TOKEN', hint);
  return { token };
}

/** The challenge scheme a 401 for `scheme` carries (RFC 7235 requires one). */
export function challengeScheme(scheme: SecurityScheme): string {
  switch (scheme.kind) {
    case 'http-basic':
      return 'Basic';
    case 'api-key':
      return 'ApiKey';
    default:
      return 'Bearer';
  }
}

/** The check for one security scheme of the spec, as a function of the request. */
export function securityCheck(scheme: SecurityScheme, policy: CredentialPolicy): (request: CredentialSource) => SecurityOutcome {
  const outcome = (result: string | Rejection): SecurityOutcome => (typeof result === 'string' ? { credential: result } : { error: result });
  switch (scheme.kind) {
    case 'http-bearer':
    case 'oauth-bearer':
      return ({ headers }) => outcome(checkBearer(headers.authorization as string | undefined, policy));
    case 'http-basic':
      return ({ headers }) => outcome(checkBasic(headers.authorization as string | undefined, policy));
    case 'api-key': {
      const name = scheme.parameter;
      if (scheme.in === 'header') {
        const where = `the header '${name}: <key>'`;
        return ({ headers }) => outcome(checkApiKey(first(headers[name]), where, policy));
      }
      if (scheme.in === 'query') {
        const where = `the query parameter '${name}=<key>'`;
        return ({ query }) => outcome(checkApiKey(first(query?.[name]), where, policy));
      }
      const where = `the cookie '${name}=<key>'`;
      return ({ headers }) => outcome(checkApiKey(cookieValue(headers.cookie, name), where, policy));
    }
    case 'unsupported':
      // mutualTLS and the like: nothing in a request the mock sees can satisfy them, so they are not checked.
      return () => ({ credential: '' });
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
