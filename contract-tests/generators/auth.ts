/**
 * Credentials sent every way the spec's security scheme allows and a few it does not. For a
 * bearer scheme (RFC 7235 / RFC 6750): the scheme name in any letter case and one or more spaces
 * before the token must be accepted; another scheme, the token without a scheme, an empty token,
 * a token that differs from the valid one only in letter case or length must not succeed. Forms
 * the RFCs leave open (a tab, two Authorization headers, trailing whitespace) only report what the
 * provider did. For an API key in a header: the header name in any letter case is accepted; no
 * value, an empty one, a near-miss or the key under Authorization must not succeed.
 */
import type { SchemePlace } from '../../fixtures/index.js';
import type { SecurityScheme } from '../spec-contract.js';

/** Where a case's credential goes: headers, query pairs, cookies. */
export interface CredentialParts {
  headers: Record<string, string | string[]>;
  query?: Array<[string, string]>;
  cookies?: Array<[string, string]>;
}

export interface AuthCase {
  label: string;
  /** The credential of the case (replacing the valid credential). */
  credentials: CredentialParts;
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
export function otherCase(token: string): string | undefined {
  const flipped = [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return flipped === token ? undefined : flipped;
}

/** The valid token less its last character (a near miss), when it has more than one. */
export const prefixOf = (token: string): string | undefined => (token.length > 1 ? token.slice(0, -1) : undefined);

/** The valid token with one character added (a near miss). */
const withSuffix = (token: string): string => `${token}x`;

/** The valid token as HTTP Basic credentials: base64 of `token:` (RFC 7617, an empty password). */
export const basicCredentials = (token: string): string => Buffer.from(`${token}:`).toString('base64');

/**
 * Every form of the valid credential other than itself that the auth cases send, each with the
 * stand-in a report shows for it: a shell expression that computes it from $PLANT_STORE_TOKEN, so
 * a replay line runs as printed (bash). A report must never show any of them. (The token with a
 * character added is listed too: a short token is masked only where it stands alone, and inside
 * `tokenx` it does not.)
 */
export function derivedCredentials(token: string): Array<[form: string, standIn: string]> {
  const forms: Array<[string, string]> = [];
  const flipped = otherCase(token);
  if (flipped) forms.push([flipped, '${PLANT_STORE_TOKEN~~}']);
  const prefix = prefixOf(token);
  if (prefix) forms.push([prefix, '${PLANT_STORE_TOKEN%?}']);
  forms.push([withSuffix(token), '${PLANT_STORE_TOKEN}x']);
  forms.push([basicCredentials(token), '$(printf \'%s:\' "$PLANT_STORE_TOKEN" | base64 -w0)']);
  const encoded = encodeURIComponent(token);
  if (encoded !== token) forms.push([encoded, '${PLANT_STORE_TOKEN}']);
  return forms;
}

/** How the valid credential is sent under `security`; `basic` is the --basic `user:password`. */
export function validCredentials(security: SecurityScheme, token: string, basic: string): CredentialParts {
  switch (security.kind) {
    case 'none':
      return { headers: {} };
    case 'bearer':
      return { headers: { authorization: `Bearer ${token}` } };
    case 'basic':
      return { headers: { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } };
    case 'api-key':
      if (security.in === 'query') return { headers: {}, query: [[security.header, token]] };
      if (security.in === 'cookie') return { headers: {}, cookies: [[security.header, token]] };
      return { headers: { [security.header]: token } };
  }
}

/**
 * The auth cases of `security`. `alternatives`: where the operation's other security alternatives
 * (those the suite does not send) take their credential. A case sending the valid token under
 * another scheme is judged only when no alternative takes that scheme: the same key may well be
 * valid there (an API key that is also an OAuth2 access token), and the suite knows only that it
 * satisfies the alternative it sends.
 */
export function authCases(security: SecurityScheme, token: string, invalidToken: string, seed: number, basic = '', alternatives: readonly SchemePlace[] = []): AuthCase[] {
  if (security.kind === 'none') return [];
  const out: AuthCase[] = [];
  const otherwise = (kind: 'bearer' | 'basic'): Pick<AuthCase, 'expect' | 'rule'> =>
    alternatives.some((place) => place.kind === kind)
      ? {
          expect: 'provider-choice',
          rule: `another of the operation's security alternatives takes ${kind === 'bearer' ? 'a bearer token' : 'HTTP Basic credentials'}, and the suite cannot know whether this credential is valid there`,
        }
      : { expect: 'unauthenticated' };
  const valid = validCredentials(security, token, basic);
  const headersOnly = (headers: Record<string, string | string[]>): CredentialParts => ({ headers });
  // Every scheme of the requirement must be sent: the main credential alone, or with a wrong key alongside, never succeeds.
  for (const key of security.alongside) {
    out.push({
      label: `without-${key.header}`,
      credentials: valid,
      omit: [key.header],
      expect: 'unauthenticated',
      about: `the valid ${security.name} credential without ${key.header}, which the spec requires together with it (${key.name})`,
    });
    out.push({
      label: `wrong-${key.header}`,
      credentials: { ...valid, headers: { ...valid.headers, [key.header]: invalidToken } },
      expect: 'unauthenticated',
      about: `the valid ${security.name} credential with a never-issued ${key.header} (${key.name})`,
    });
  }
  out.push({ label: 'no-credential', credentials: { headers: {} }, expect: 'unauthenticated', about: `no credential at all (${security.name} is required)` });
  const nearMisses = (send: (credential: string) => CredentialParts): void => {
    const flipped = otherCase(token);
    if (flipped) out.push({ label: 'token-other-case', credentials: send(flipped), expect: 'unauthenticated', about: 'the valid token with its letter case changed (tokens are case-sensitive)' });
    out.push({ label: 'token-with-suffix', credentials: send(withSuffix(token)), expect: 'unauthenticated', about: 'the valid token with one character added' });
    const prefix = prefixOf(token);
    if (prefix) out.push({ label: 'token-prefix', credentials: send(prefix), expect: 'unauthenticated', about: 'the valid token less its last character' });
  };
  const rule7235 = 'RFC 7235 §2.1: the scheme is case-insensitive and 1*SP separates it from the credentials';
  const mask = (seed % 62) + 1;
  if (security.kind === 'basic') {
    const pair = Buffer.from(basic).toString('base64');
    for (const [label, scheme] of [
      ['scheme-lower-case', 'basic'],
      ['scheme-upper-case', 'BASIC'],
      ['scheme-mixed-case', mixedCase('basic', mask)],
    ] as const) {
      out.push({ label, credentials: headersOnly({ authorization: `${scheme} ${pair}` }), expect: 'accepted', about: `the valid Basic credentials under the scheme written ${scheme} (${rule7235})` });
    }
    out.push({
      label: 'wrong-password',
      credentials: headersOnly({ authorization: `Basic ${Buffer.from(`${basic}x`).toString('base64')}` }),
      expect: 'unauthenticated',
      about: 'the user with a password one character longer',
    });
    out.push({
      label: 'user-only',
      credentials: headersOnly({ authorization: `Basic ${Buffer.from(`${basic.split(':')[0]}:`).toString('base64')}` }),
      expect: 'unauthenticated',
      about: 'the user with an empty password',
    });
    out.push({ label: 'empty-credentials', credentials: headersOnly({ authorization: 'Basic ' }), expect: 'unauthenticated', about: 'the Basic scheme, a space and nothing' });
    out.push({ label: 'pair-as-bearer', credentials: headersOnly({ authorization: `Bearer ${pair}` }), ...otherwise('bearer'), about: 'the valid Basic credentials under the Bearer scheme' });
    return out;
  }
  if (security.kind === 'bearer') {
    for (const [label, scheme] of [
      ['scheme-lower-case', 'bearer'],
      ['scheme-upper-case', 'BEARER'],
      ['scheme-mixed-case', mixedCase('bearer', mask)],
    ] as const) {
      out.push({ label, credentials: headersOnly({ authorization: `${scheme} ${token}` }), expect: 'accepted', about: `the valid token under the scheme written ${scheme} (${rule7235})` });
    }
    out.push({ label: 'two-spaces', credentials: headersOnly({ authorization: `Bearer  ${token}` }), expect: 'accepted', about: `two spaces between the scheme and the token (${rule7235})` });
    out.push({ label: 'five-spaces', credentials: headersOnly({ authorization: `Bearer     ${token}` }), expect: 'accepted', about: `five spaces between the scheme and the token (${rule7235})` });
    out.push({ label: 'empty-token-with-space', credentials: headersOnly({ authorization: 'Bearer ' }), expect: 'unauthenticated', about: 'the Bearer scheme, a space and no token' });
    out.push({
      label: 'lower-case-scheme-invalid-token',
      credentials: headersOnly({ authorization: `bearer ${invalidToken}` }),
      expect: 'unauthenticated',
      about: 'a token the provider never issued, under the scheme in lower case',
    });
    out.push({ label: 'token-as-scheme', credentials: headersOnly({ authorization: `${token} ${token}` }), expect: 'unauthenticated', about: 'the valid token in the place of the scheme' });
    out.push({
      label: 'basic-with-token',
      credentials: headersOnly({ authorization: `Basic ${basicCredentials(token)}` }),
      ...otherwise('basic'),
      about: 'the valid token sent as HTTP Basic credentials',
    });
    nearMisses((credential) => headersOnly({ authorization: `Bearer ${credential}` }));
    const choice = 'RFC 7235 / RFC 6750 leave it open';
    out.push({
      label: 'tab-separator',
      credentials: headersOnly({ authorization: `Bearer\t${token}` }),
      expect: 'provider-choice',
      about: 'a tab between the scheme and the token',
      rule: `${choice}: 1*SP names spaces only, yet many parsers take any whitespace`,
    });
    out.push({
      label: 'two-headers-valid-first',
      credentials: headersOnly({ authorization: [`Bearer ${token}`, `Bearer ${invalidToken}`] }),
      expect: 'provider-choice',
      about: 'two Authorization headers, the valid token first',
      rule: `${choice}: Authorization is not a list header (RFC 9110 §5.3), so two of them are malformed, and servers differ`,
    });
    out.push({
      label: 'two-headers-valid-second',
      credentials: headersOnly({ authorization: [`Bearer ${invalidToken}`, `Bearer ${token}`] }),
      expect: 'provider-choice',
      about: 'two Authorization headers, the valid token second',
      rule: `${choice}: Authorization is not a list header (RFC 9110 §5.3), so two of them are malformed, and servers differ`,
    });
    return out;
  }
  const { header } = security;
  if (security.in === 'query') {
    out.push({ label: 'empty-key', credentials: { headers: {}, query: [[header, '']] }, expect: 'unauthenticated', about: `an empty ${header} query parameter` });
    out.push({
      label: 'key-as-bearer',
      credentials: headersOnly({ authorization: `Bearer ${token}` }),
      ...otherwise('bearer'),
      about: `the valid key sent as a bearer token instead of in the query parameter ${header}`,
    });
    nearMisses((credential) => ({ headers: {}, query: [[header, credential]] }));
    return out;
  }
  if (security.in === 'cookie') {
    out.push({ label: 'empty-key', credentials: { headers: {}, cookies: [[header, '']] }, expect: 'unauthenticated', about: `an empty ${header} cookie` });
    out.push({
      label: 'key-as-bearer',
      credentials: headersOnly({ authorization: `Bearer ${token}` }),
      ...otherwise('bearer'),
      about: `the valid key sent as a bearer token instead of in the cookie ${header}`,
    });
    nearMisses((credential) => ({ headers: {}, cookies: [[header, credential]] }));
    return out;
  }
  const upper = header.toUpperCase();
  if (upper !== header)
    out.push({
      label: 'header-name-upper-case',
      credentials: headersOnly({ [upper]: token }),
      expect: 'accepted',
      about: `the API key under the header name written ${upper} (header names are case-insensitive, RFC 9110 §5.1)`,
    });
  out.push({ label: 'empty-key', credentials: headersOnly({ [header]: '' }), expect: 'unauthenticated', about: `an empty ${header} header` });
  out.push({
    label: 'key-as-bearer',
    credentials: headersOnly({ authorization: `Bearer ${token}` }),
    ...otherwise('bearer'),
    about: `the valid key sent as a bearer token instead of in ${header}`,
  });
  nearMisses((credential) => headersOnly({ [header]: credential }));
  out.push({
    label: 'two-key-headers',
    credentials: headersOnly({ [header]: [token, invalidToken] }),
    expect: 'provider-choice',
    about: `two ${header} headers, the valid key first`,
    rule: 'the spec says one header; with two, servers differ (join, first, last or refuse)',
  });
  return out;
}
