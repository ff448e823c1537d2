/**
 * Credentials sent every way the spec's security scheme allows and a few it does not. For a
 * bearer scheme (RFC 7235 / RFC 6750): the scheme name in any letter case and one or more spaces
 * before the token must be accepted; another scheme, the token without a scheme, an empty token,
 * a token that differs from the valid one only in letter case or length must not succeed. Forms
 * the RFCs leave open (a tab, two Authorization headers, trailing whitespace) only report what the
 * provider did. For an API key in a header: the header name in any letter case is accepted; no
 * value, an empty one, a near-miss or the key under Authorization must not succeed.
 */
import type { SecurityScheme } from '../spec-contract.js';

export interface AuthCase {
  label: string;
  /** The credential headers of the case (replacing the valid credential). */
  headers: Record<string, string | string[]>;
  /** Headers left out of the case (a key the requirement sends along with the main credential). */
  omit?: string[];
  expect: 'accepted' | 'unauthenticated' | 'provider-choice';
  about: string;
  rule?: string;
}

/** The scheme name with letter case flipped at the positions `mask` selects (from the seed). */
function mixedCase(word: string, mask: number): string {
  return [...word].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** A token that differs from `token` only in letter case, when it has letters. */
function otherCase(token: string): string | undefined {
  const flipped = [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return flipped === token ? undefined : flipped;
}

/** The valid token less its last character (a near miss), when it has more than one. */
const prefixOf = (token: string): string | undefined => (token.length > 1 ? token.slice(0, -1) : undefined);

/** The valid token with one character added (a near miss). */
const withSuffix = (token: string): string => `${token}x`;

/** The valid token as HTTP Basic credentials: base64 of `token:` (RFC 7617, an empty password). */
const basicCredentials = (token: string): string => Buffer.from(`${token}:`).toString('base64');

/**
 * Every form of the valid token other than the token itself that the auth cases send, each with
 * the stand-in a report shows for it: a report must never show any of them. (The token with a
 * character added is listed too: a short token is masked only where it stands alone, and inside
 * `tokenx` it does not.)
 */
export function derivedCredentials(token: string): Array<[form: string, standIn: string]> {
  const forms: Array<[string, string]> = [];
  const flipped = otherCase(token);
  if (flipped) forms.push([flipped, '<token in other case>']);
  const prefix = prefixOf(token);
  if (prefix) forms.push([prefix, '<token less its last character>']);
  forms.push([withSuffix(token), '<token with one character added>']);
  forms.push([basicCredentials(token), '<token as Basic credentials>']);
  return forms;
}

export function authCases(security: SecurityScheme, token: string, invalidToken: string, seed: number): AuthCase[] {
  if (security.kind === 'none') return [];
  const out: AuthCase[] = [];
  const valid = security.kind === 'bearer' ? { authorization: `Bearer ${token}` } : { [security.header]: token };
  // Every scheme of the requirement must be sent: the main credential alone, or with a wrong key alongside, never succeeds.
  for (const key of security.alongside) {
    out.push({ label: `without-${key.header}`, headers: valid, omit: [key.header], expect: 'unauthenticated', about: `the valid ${security.name} credential without ${key.header}, which the spec requires together with it (${key.name})` });
    out.push({ label: `wrong-${key.header}`, headers: { ...valid, [key.header]: invalidToken }, expect: 'unauthenticated', about: `the valid ${security.name} credential with a never-issued ${key.header} (${key.name})` });
  }
  const nearMisses = (send: (credential: string) => Record<string, string | string[]>): void => {
    const flipped = otherCase(token);
    if (flipped) out.push({ label: 'token-other-case', headers: send(flipped), expect: 'unauthenticated', about: 'the valid token with its letter case changed (tokens are case-sensitive)' });
    out.push({ label: 'token-with-suffix', headers: send(withSuffix(token)), expect: 'unauthenticated', about: 'the valid token with one character added' });
    const prefix = prefixOf(token);
    if (prefix) out.push({ label: 'token-prefix', headers: send(prefix), expect: 'unauthenticated', about: 'the valid token less its last character' });
  };
  if (security.kind === 'bearer') {
    const rule7235 = 'RFC 7235 §2.1: the scheme is case-insensitive and 1*SP separates it from the credentials';
    const mask = (seed % 62) + 1;
    for (const [label, scheme] of [['scheme-lower-case', 'bearer'], ['scheme-upper-case', 'BEARER'], ['scheme-mixed-case', mixedCase('bearer', mask)]] as const) {
      out.push({ label, headers: { authorization: `${scheme} ${token}` }, expect: 'accepted', about: `the valid token under the scheme written ${scheme} (${rule7235})` });
    }
    out.push({ label: 'two-spaces', headers: { authorization: `Bearer  ${token}` }, expect: 'accepted', about: `two spaces between the scheme and the token (${rule7235})` });
    out.push({ label: 'five-spaces', headers: { authorization: `Bearer     ${token}` }, expect: 'accepted', about: `five spaces between the scheme and the token (${rule7235})` });
    out.push({ label: 'empty-token-with-space', headers: { authorization: 'Bearer ' }, expect: 'unauthenticated', about: 'the Bearer scheme, a space and no token' });
    out.push({ label: 'lower-case-scheme-invalid-token', headers: { authorization: `bearer ${invalidToken}` }, expect: 'unauthenticated', about: 'a token the provider never issued, under the scheme in lower case' });
    out.push({ label: 'token-as-scheme', headers: { authorization: `${token} ${token}` }, expect: 'unauthenticated', about: 'the valid token in the place of the scheme' });
    out.push({ label: 'basic-with-token', headers: { authorization: `Basic ${basicCredentials(token)}` }, expect: 'unauthenticated', about: 'the valid token sent as HTTP Basic credentials' });
    nearMisses((credential) => ({ authorization: `Bearer ${credential}` }));
    const choice = 'RFC 7235 / RFC 6750 leave it open';
    out.push({ label: 'tab-separator', headers: { authorization: `Bearer\t${token}` }, expect: 'provider-choice', about: 'a tab between the scheme and the token', rule: `${choice}: 1*SP names spaces only, yet many parsers take any whitespace` });
    out.push({ label: 'two-headers-valid-first', headers: { authorization: [`Bearer ${token}`, `Bearer ${invalidToken}`] }, expect: 'provider-choice', about: 'two Authorization headers, the valid token first', rule: `${choice}: Authorization is not a list header (RFC 9110 §5.3), so two of them are malformed, and servers differ` });
    out.push({ label: 'two-headers-valid-second', headers: { authorization: [`Bearer ${invalidToken}`, `Bearer ${token}`] }, expect: 'provider-choice', about: 'two Authorization headers, the valid token second', rule: `${choice}: Authorization is not a list header (RFC 9110 §5.3), so two of them are malformed, and servers differ` });
    return out;
  }
  const { header } = security;
  const upper = header.toUpperCase();
  if (upper !== header) out.push({ label: 'header-name-upper-case', headers: { [upper]: token }, expect: 'accepted', about: `the API key under the header name written ${upper} (header names are case-insensitive, RFC 9110 §5.1)` });
  out.push({ label: 'empty-key', headers: { [header]: '' }, expect: 'unauthenticated', about: `an empty ${header} header` });
  out.push({ label: 'key-as-bearer', headers: { authorization: `Bearer ${token}` }, expect: 'unauthenticated', about: `the valid key sent as a bearer token instead of in ${header}` });
  nearMisses((credential) => ({ [header]: credential }));
  out.push({ label: 'two-key-headers', headers: { [header]: [token, invalidToken] }, expect: 'provider-choice', about: `two ${header} headers, the valid key first`, rule: 'the spec says one header; with two, servers differ (join, first, last or refuse)' });
  return out;
}
