/**
 * The secrets a run must never show (the token, every form of it the auth cases send, the --basic
 * credentials, the --header values) and their masking in what the reports show. Worked out once per
 * run: every exchange's request and answer and every finding is masked, and working the list and its
 * patterns out again for each text was 9 % of a run's CPU (netlify's 17,840 exchanges).
 */
import type { FixtureCase } from '../fixtures/index.js';
import { derivedCredentials } from './generators/auth.js';

/** What the secrets are made from: the run's credentials and the case files that build on the token. */
export interface SecretSources {
  token: string;
  headers: Readonly<Record<string, string>>;
  basic?: string;
  extraCases?: readonly FixtureCase[];
}

/** Secrets the run must never show: the token, every form of it the auth cases send, and the --header values, longest first. */
export function secrets(options: SecretSources): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  if (options.token) list.push([options.token, '<token>'], ...derivedCredentials(options.token), ...caseCredentialForms(options.extraCases ?? [], options.token));
  if (options.basic) {
    const password = options.basic.slice(options.basic.indexOf(':') + 1);
    list.push([Buffer.from(options.basic).toString('base64'), '<the --basic credentials>']);
    if (password.length >= 4) list.push([password, '<the --basic password>']);
  }
  for (const value of Object.values(options.headers)) if (value.length >= 4) list.push([value, '<value given with --header>']);
  return list.sort((a, b) => b[0].length - a[0].length);
}

/**
 * The base64 forms of the credentials case files build from the token (`{"scheme": "login", "value":
 * "ann:{{token}}"}`, sent as HTTP Basic): the token inside them escapes its plain forms. Each stand-in
 * computes the same bytes from $PLANT_STORE_TOKEN (report.ts reads it back for the curl line).
 */
function caseCredentialForms(cases: readonly FixtureCase[], token: string): Array<[string, string]> {
  const forms = new Map<string, string>();
  for (const { request } of cases) {
    const { auth } = request;
    if (typeof auth !== 'object' || !('scheme' in auth) || auth.value === '{{token}}' || !auth.value.includes('{{token}}')) continue;
    const pieces = auth.value.split('{{token}}');
    const sent = pieces.join(token);
    const quoted = pieces.map((piece) => (piece === '' ? '' : `'${piece.replaceAll("'", "'\\''")}'`)).join('"$PLANT_STORE_TOKEN"');
    forms.set(Buffer.from(sent).toString('base64'), `$(printf %s ${quoted} | base64 -w0)`);
  }
  return [...forms];
}

const TOKEN_CHAR = 'A-Za-z0-9\\-._~+/=';
/** Below this length a derived form of the token is masked only where credentials go. */
const SHORT_FORM = 4;

interface MaskedSecret {
  secret: string;
  stand: string;
  /** Only where a credential goes (see SecretMask.mask). */
  credentialOnly: boolean;
  /** For a secret under 8 characters: it alone, not inside a longer word. */
  alone?: RegExp;
}

/**
 * Masks every secret of a run with its stand-in. A secret of 8 characters or more is masked wherever
 * it appears; a shorter one only where it stands alone (not inside a longer word), so a token such as
 * `T` does not garble every capital T of a report.
 */
export class SecretMask {
  readonly #secrets: readonly MaskedSecret[];

  constructor(sources: SecretSources) {
    this.#secrets = secrets(sources).map(([secret, stand]) => ({
      secret,
      stand,
      // A derived form of a short token (`an` of `any`) cannot be told from a provider's words:
      // it is masked where the suite put a credential (headers, the URL), not in free text.
      credentialOnly: secret.length < SHORT_FORM && secret !== sources.token,
      ...(secret.length < 8 ? { alone: new RegExp(`(?<![${TOKEN_CHAR}])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![${TOKEN_CHAR}])`, 'g') } : {}),
    }));
  }

  /** `text` with every secret replaced by its stand-in; `credential` where the suite put a credential (headers, the URL). */
  mask(text: string, where: 'credential' | 'text' = 'text'): string {
    let out = text;
    for (const { secret, stand, credentialOnly, alone } of this.#secrets) {
      if (where === 'text' && credentialOnly) continue;
      // Most texts hold no secret: a substring search settles it before any replacement.
      if (!out.includes(secret)) continue;
      out = alone ? out.replace(alone, stand) : out.replaceAll(secret, stand);
    }
    return out;
  }
}
