/**
 * What of a credential the mock may show anywhere (an answer's message, the journal, a log, an
 * exported case): never the credential itself. A mask keeps a secret's length class and, for a
 * long one, its first and last two characters, so a developer can tell two tokens apart without
 * anyone being able to reuse one (`Authorization: Bearer ab…yz`).
 */
import { SecretMatcher } from './secret-matcher.js';

/**
 * Authentication schemes an Authorization header may name (the IANA HTTP Authentication Scheme
 * Registry, plus a few in common use). Only these are ever quoted: a first word that is not one
 * of them may be the credential itself (`Authorization: sk_live_…` sent without a scheme).
 */
const KNOWN_SCHEMES = new Set(
  [
    'Basic',
    'Bearer',
    'Concealed',
    'Digest',
    'DPoP',
    'GNAP',
    'HOBA',
    'Mutual',
    'Negotiate',
    'NTLM',
    'OAuth',
    'PrivateToken',
    'SCRAM-SHA-1',
    'SCRAM-SHA-256',
    'vapid',
    'Token',
    'ApiKey',
    'AWS4-HMAC-SHA256',
  ].map((scheme) => scheme.toLowerCase()),
);

/** Whether `word` is an authentication scheme name the mock may quote (case-insensitive). */
export function isKnownScheme(word: string): boolean {
  return KNOWN_SCHEMES.has(word.toLowerCase());
}

/** Secrets shorter than this are masked whole: two characters at each end would be most of them. */
const REVEAL_FROM = 12;

/** A secret as it may be shown: `ab…yz` for a long one, `…` for a short one. */
export function maskSecret(secret: string): string {
  if (secret.length < REVEAL_FROM) return '…';
  return `${secret.slice(0, 2)}…${secret.slice(-2)}`;
}

/**
 * An Authorization (or Proxy-Authorization) value with its credentials masked: the scheme stays
 * when it is a known one (`Bearer ab…yz`, `Basic dX…Mz`); a value without one is masked whole.
 */
export function maskAuthorization(value: string): string {
  const match = /^([ \t]*)(\S+)([ \t]+)(.*)$/s.exec(value);
  if (match && isKnownScheme(match[2] as string)) {
    const [, lead = '', scheme = '', gap = '', credentials = ''] = match;
    return `${lead}${scheme}${gap}${credentials === '' ? '' : maskSecret(credentials.trim())}`;
  }
  const trimmed = value.trim();
  return trimmed === '' ? value : maskSecret(trimmed);
}

/**
 * A Cookie header with every value masked, names kept: `session=…; theme=da…rk`. A cookie without
 * a name (`document.cookie = "token"` sends just `token`) is all value.
 */
export function maskCookies(value: string): string {
  return value
    .split(';')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at !== -1) return `${pair.slice(0, at)}=${maskSecret(pair.slice(at + 1).trim())}`;
      const bare = pair.trim();
      return bare === '' ? pair : `${pair.slice(0, pair.indexOf(bare))}${maskSecret(bare)}`;
    })
    .join(';');
}

/** A Set-Cookie header with its value masked, its attributes kept. */
export function maskSetCookie(value: string): string {
  const end = value.indexOf(';');
  const pair = end === -1 ? value : value.slice(0, end);
  return maskCookies(pair) + (end === -1 ? '' : value.slice(end));
}

/** Where a request carries credentials, besides Authorization and cookies. */
export interface CredentialPlaces {
  /** Header names (lower case) whose whole value is a credential: the spec's API key headers and common ones. */
  headers: ReadonlySet<string>;
  /** Query parameters whose value is a credential: the spec's API key parameters and RFC 6750's access_token. */
  query: ReadonlySet<string>;
  /** Credentials the mock knows (the admin token, the --tokens allow-list): masked wherever they appear. */
  secrets: KnownSecrets;
}

/**
 * Header names that carry a credential whatever the spec says: API keys and tokens, a CSRF token,
 * an Authorization a gateway forwarded, AWS's session token. docs/security.md lists them.
 */
export const COMMON_CREDENTIAL_HEADERS: readonly string[] = [
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-forwarded-authorization',
  'x-amz-security-token',
];
/** Query parameters that carry a credential whatever the spec says: RFC 6750 §2.3's, API keys, signatures. */
export const COMMON_CREDENTIAL_QUERY: readonly string[] = ['access_token', 'api_key', 'apikey', 'sig', 'signature', 'token', 'X-Amz-Signature', 'X-Amz-Security-Token'];

/** Known secrets shorter than this are not searched for in free text: they would mask ordinary words. */
const SECRET_MIN_LENGTH = 4;

/** Up to this many secrets, a text none of them occurs in is told apart by `includes` alone (the common case: no match, a few tokens). */
const FEW_SECRETS = 8;

/**
 * The secrets to mask wherever they appear, compiled once into one automaton: masking a text costs
 * its length plus the secrets' total length, never their product (a request may carry a thousand
 * cookies and a body quoting them).
 */
export class KnownSecrets {
  readonly list: readonly string[];
  readonly #searched: readonly string[];
  // Built on the first text a secret occurs in: a request's own credential makes a KnownSecrets
  // per request, and most texts are told apart by `includes` alone.
  #matcher: SecretMatcher | undefined;

  constructor(list: readonly string[]) {
    this.list = list;
    this.#searched = list.filter((secret) => secret.length >= SECRET_MIN_LENGTH);
  }

  /** `text` with every occurrence of a secret masked (occurrences that overlap masked as one). */
  mask(text: string): string {
    const searched = this.#searched;
    if (searched.length === 0 || text.length < SECRET_MIN_LENGTH) return text;
    if (searched.length <= FEW_SECRETS && !searched.some((secret) => text.includes(secret))) return text;
    const runs = (this.#matcher ??= new SecretMatcher(searched)).find(text);
    if (runs.length === 0) return text;
    let masked = '';
    let from = 0;
    for (const [start, end] of runs) {
      masked += text.slice(from, start) + maskSecret(text.slice(start, end));
      from = end;
    }
    return masked + text.slice(from);
  }
}

/** `text` with every known secret in it masked. */
export function maskKnownSecrets(text: string, secrets: KnownSecrets | readonly string[]): string {
  return (secrets instanceof KnownSecrets ? secrets : new KnownSecrets(secrets)).mask(text);
}

/** A header value as it may be shown. */
export function maskHeader(name: string, value: string, places: CredentialPlaces): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return maskAuthorization(value);
  if (lower === 'cookie') return maskCookies(value);
  if (lower === 'set-cookie') return maskSetCookie(value);
  if (places.headers.has(lower)) return value.trim() === '' ? value : maskSecret(value.trim());
  return maskKnownSecrets(value, places.secrets);
}

/** A query string (without `?`) with the values of credential parameters masked, as it may be shown. */
export function maskQuery(query: string, places: CredentialPlaces): string {
  const masked = query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at === -1) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, at).replaceAll('+', ' '));
      } catch {
        name = pair.slice(0, at);
      }
      return places.query.has(name) ? `${pair.slice(0, at)}=${encodeURIComponent(maskSecret(pair.slice(at + 1)))}` : pair;
    })
    .join('&');
  return maskKnownSecrets(masked, places.secrets);
}

/**
 * A query string (without `?`) for a log line: the parameters' names, every value masked. A log
 * may be shipped anywhere, and any parameter (`key`, `sig`, `code`) may carry a credential the
 * spec does not name; the journal keeps the values, masked by rule, for whoever debugs.
 */
export function queryNamesOnly(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at === -1 ? pair : `${pair.slice(0, at)}=…`;
    })
    .join('&');
}
