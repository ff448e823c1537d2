/**
 * Single-flaw providers: each is the reference provider with exactly one step replaced by a
 * mistake real services make, and names the one check that must catch it and words its report
 * must contain. docs/contract-mutations.md lists them (a test keeps the two in step).
 */
import { parseExactJson } from '../../../openapi/schema/exact-json.js';
import type { CheckName } from '../../model.js';
import { Crash, rawHeaderValues, REFERENCE, type Behaviour } from './provider.js';

export type FlawClass = 'strings' | 'json-syntax' | 'numbers' | 'schema' | 'auth' | 'response' | 'transport';

export interface FlawProvider {
  class: FlawClass;
  /** What is wrong, in one sentence (the doc table's words). */
  flaw: string;
  /** The one check that must fail. */
  caughtBy: CheckName;
  /** Words the failure must contain, so the report explains the flaw. */
  says: RegExp;
  behaviour: Partial<Behaviour>;
  /** Per-request timeout for the run (hangs). */
  timeoutMs?: number;
}

/** The plant's strings, each passed through `change`. */
const mapStrings = (change: (s: string) => unknown): Partial<Behaviour> => ({
  plant: (value) => Object.fromEntries(Object.entries(REFERENCE.plant(value)).map(([k, v]) => [k, typeof v === 'string' ? change(v) : v])),
});

/** `text` with `change` applied to what lies outside JSON double-quoted strings. */
export function outsideStrings(text: string, change: (segment: string) => string): string {
  let out = '';
  let segment = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      out += change(segment) + c;
      segment = '';
      inString = true;
    } else segment += c;
  }
  return out + change(segment);
}

/** Where the first JSON value of `text` ends (a streaming decoder's view). */
function firstValueEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The literal of the id member as sent (`"id": 1.0` → `1.0`). */
const idLiteral = (text: string): string | undefined => /"id"\s*:\s*(-?[0-9][0-9.eE+-]*)/.exec(text)?.[1];

const nameOf = (value: Record<string, unknown>): string => String(value.name);
const strings = (value: Record<string, unknown>): string[] => Object.values(value).filter((v): v is string => typeof v === 'string');

/** A recursive-descent depth count, as a naive parser recurses: deep enough, and the stack is gone. */
function recursiveDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const c of outsideStrings(text, (s) => s.replace(/[^[\]{}]/g, ''))) {
    if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

export const FLAWS: Record<string, FlawProvider> = {
  // Strings.
  'empty-name-refused': {
    class: 'strings',
    flaw: 'refuses the empty name (a "not blank" rule the spec does not have)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*name must not be empty/,
    behaviour: { refuse: (v) => (v.name === '' ? 'name must not be empty.' : undefined) },
  },
  'name-capped-at-255': {
    class: 'strings',
    flaw: 'refuses names longer than 255 characters (a VARCHAR(255) column)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*name is longer than 255/,
    behaviour: { refuse: (v) => ([...nameOf(v)].length > 255 ? 'name is longer than 255 characters.' : undefined) },
  },
  'name-truncated-at-255': {
    class: 'strings',
    flaw: 'stores and echoes only the first 255 characters of a name',
    caughtBy: 'response_echoes_request',
    says: /they part at character 256/,
    behaviour: { plant: (v) => ({ ...REFERENCE.plant(v), name: [...nameOf(v)].slice(0, 255).join('') }) },
  },
  'number-like-strings-coerced': {
    class: 'strings',
    flaw: 'answers strings that look like numbers as JSON numbers (a loosely typed store)',
    caughtBy: 'response_schema_conformance',
    says: /200 body is not a Plant: .*must be a string/,
    behaviour: mapStrings((s) => (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s) ? Number(s) : s)),
  },
  'whitespace-trimmed': {
    class: 'strings',
    flaw: 'trims leading and trailing whitespace from strings',
    caughtBy: 'response_echoes_request',
    says: /The answer's (name|tag) is .*, but the request sent/,
    behaviour: mapStrings((s) => s.trim()),
  },
  'control-characters-stripped': {
    class: 'strings',
    flaw: 'strips control characters from strings',
    caughtBy: 'response_echoes_request',
    says: /they part at character \d+ \(sent U\+00/,
    behaviour: mapStrings((s) => s.replace(/[\u0000-\u001f\u007f]/g, '')),
  },
  'astral-characters-replaced': {
    class: 'strings',
    flaw: 'replaces characters outside the BMP with "?" (a 3-byte utf8 column)',
    caughtBy: 'response_echoes_request',
    says: /sent U\+1F335, got U\+003F/,
    behaviour: mapStrings((s) => s.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')),
  },
  'unicode-normalized': {
    class: 'strings',
    flaw: 'normalizes strings to NFC (decomposed accents come back composed)',
    caughtBy: 'response_echoes_request',
    says: /sent U\+0065, got U\+00E9/,
    behaviour: mapStrings((s) => s.normalize('NFC')),
  },
  'html-escaped': {
    class: 'strings',
    flaw: 'HTML-escapes strings before storing them',
    caughtBy: 'response_echoes_request',
    says: /&lt;script&gt;/,
    behaviour: mapStrings((s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')),
  },
  'double-encoded': {
    class: 'strings',
    flaw: 'reads UTF-8 bytes as Latin-1 and re-encodes them (mojibake)',
    caughtBy: 'response_echoes_request',
    says: /Ã/,
    behaviour: mapStrings((s) => Buffer.from(s, 'utf8').toString('latin1')),
  },
  'null-like-names-refused': {
    class: 'strings',
    flaw: 'treats the names "null", "undefined", "true" and "false" as missing',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*name is required/,
    behaviour: { refuse: (v) => (['null', 'undefined', 'true', 'false'].includes(nameOf(v)) ? 'name is required.' : undefined) },
  },
  'server-error-on-non-ascii-name': {
    class: 'strings',
    flaw: 'fails (500) on a name with a character outside printable ASCII',
    caughtBy: 'not_a_server_error',
    says: /Answered 500, a server error/,
    behaviour: { crash: (v) => /[^\x20-\x7e]/.test(nameOf(v)) },
  },
  'quote-breaks-query': {
    class: 'strings',
    flaw: 'fails (500) on a string with a single quote (SQL built by concatenation)',
    caughtBy: 'not_a_server_error',
    says: /Answered 500, a server error/,
    behaviour: { crash: (v) => strings(v).some((s) => s.includes("'")) },
  },
  'hangs-on-nul': {
    class: 'strings',
    flaw: 'never answers a body whose strings hold U+0000 (a C library loops on it)',
    caughtBy: 'not_a_server_error',
    says: /No complete answer within 2000 ms/,
    // Long enough that the provider's other answers, in this process, are never cut by a busy machine.
    timeoutMs: 2_000,
    behaviour: { intercept: ({ raw }) => raw.includes('\\u0000') },
  },
  // JSON syntax.
  'field-types-not-checked': {
    class: 'schema',
    flaw: 'checks only that id and name are present, not their types',
    caughtBy: 'negative_data_rejection',
    says: /Accepted \(200\) a body that is not a NewPlant: .*name is/,
    behaviour: {
      validate: (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'id' in v && 'name' in v ? undefined : 'id and name are required.'),
      identity: (v) => JSON.stringify((v as { id: unknown }).id),
      // It stores what it got as text, so its answers are still Plants.
      plant: (v) => (typeof v.tag === 'string' ? { name: String(v.name), tag: v.tag } : { name: String(v.name) }),
    },
  },
  'invalid-utf8-replaced': {
    class: 'json-syntax',
    flaw: 'decodes bytes that are not UTF-8 with U+FFFD and stores the result',
    caughtBy: 'negative_data_rejection',
    says: /not JSON text \(RFC 8259 §8\.1: JSON text is UTF-8/,
    behaviour: { decode: (raw) => new TextDecoder('utf-8').decode(raw) },
  },
  'form-body-stored': {
    class: 'json-syntax',
    flaw: 'parses application/x-www-form-urlencoded bodies too (a form parser on the JSON route) and stores them',
    caughtBy: 'negative_data_rejection',
    says: /a form-encoded body .* must be refused/,
    behaviour: {
      mediaTypeAccepted: (contentType) => /^application\/(json|x-www-form-urlencoded)\s*(;|$)/i.test(contentType ?? ''),
      parse: (text) => {
        if (!/^[^={[\s"]+=/.test(text)) return parseExactJson(text);
        return Object.fromEntries([...new URLSearchParams(text)].map(([k, v]) => [k, /^-?\d+$/.test(v) ? Number(v) : v]));
      },
      identity: (value) => BigInt((value as { id: number }).id),
    },
  },
  'charset-refused': {
    class: 'schema',
    flaw: 'answers 415 to application/json with a charset parameter (an exact string comparison)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 415/,
    behaviour: { mediaTypeAccepted: (contentType) => contentType === 'application/json' || (contentType ?? '').split(';')[0] === 'Application/JSON' },
  },
  'media-type-case-sensitive': {
    class: 'schema',
    flaw: 'compares the media type case-sensitively, so Application/JSON is answered 415',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 415/,
    behaviour: { mediaTypeAccepted: (contentType) => (contentType ?? '').split(';')[0]?.trim() === 'application/json' },
  },
  'trailing-data-accepted': {
    class: 'json-syntax',
    flaw: 'reads the first JSON value and ignores what follows (a streaming decoder)',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: a valid body followed by/,
    behaviour: { parse: (text) => parseExactJson(text.slice(0, firstValueEnd(text))) },
  },
  'comments-accepted': {
    class: 'json-syntax',
    flaw: 'strips /* */ and // comments before parsing',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: a \/\* block comment \*\//,
    behaviour: { parse: (text) => parseExactJson(outsideStrings(text, (s) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, ''))) },
  },
  'trailing-commas-accepted': {
    class: 'json-syntax',
    flaw: 'removes trailing commas before parsing',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: a trailing comma after the last member/,
    behaviour: { parse: (text) => parseExactJson(outsideStrings(text, (s) => s.replace(/,(\s*[}\]])/g, '$1'))) },
  },
  'single-quotes-accepted': {
    class: 'json-syntax',
    flaw: 'turns single quotes into double quotes before parsing',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: keys in single quotes/,
    behaviour: { parse: (text) => parseExactJson(outsideStrings(text, (s) => s.replaceAll("'", '"'))) },
  },
  'nan-accepted': {
    class: 'json-syntax',
    flaw: "accepts NaN and Infinity (Python's json module does by default)",
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: an undeclared member holding NaN/,
    behaviour: { parse: (text) => parseExactJson(outsideStrings(text, (s) => s.replace(/-?Infinity|NaN/g, 'null'))) },
  },
  'raw-control-characters-accepted': {
    class: 'json-syntax',
    flaw: 'accepts raw control characters inside strings (a non-strict parser)',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: name with a raw U\+0001/,
    behaviour: { parse: (text) => parseExactJson(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)) },
  },
  'deep-nesting-crashes': {
    class: 'json-syntax',
    flaw: 'fails (500) on deeply nested JSON: a recursive parser runs out of stack',
    caughtBy: 'not_a_server_error',
    says: /Answered 500, a server error/,
    behaviour: {
      parse: (text) => {
        if (recursiveDepth(text) > 5000) throw new Crash('Maximum call stack size exceeded');
        return parseExactJson(text);
      },
    },
  },
  // Numbers.
  'int64-read-as-double': {
    class: 'numbers',
    flaw: 'parses with JSON.parse, so ids past 2^53 are rounded and 2^63 passes the int64 check',
    caughtBy: 'negative_data_rejection',
    says: /Accepted \(200\) a body that is not a NewPlant: (An id from 2\^63|id is one past the largest id)/,
    behaviour: {
      parse: (text) => JSON.parse(text),
      validate: (value) => {
        const v = value as Record<string, unknown> | null;
        const ok = v && typeof v === 'object' && typeof v.name === 'string' && (v.tag === undefined || typeof v.tag === 'string');
        // eslint-disable-next-line no-loss-of-precision -- the flaw: int64 bounds compared as doubles
        return ok && Number.isInteger(v.id) && (v.id as number) <= 9223372036854775807 && (v.id as number) >= -9223372036854775808 ? undefined : 'Not a NewPlant.';
      },
      identity: (value) => (value as { id: number }).id,
      // It upserts: ids that round to the same double would otherwise collide, a second symptom.
      duplicateStatus: undefined,
    },
  },
  'ids-beyond-2-53-refused': {
    class: 'numbers',
    flaw: 'refuses ids beyond ±2^53 (it stores them as doubles)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*id is too large/,
    behaviour: {
      refuse: (v) => {
        const id = REFERENCE.identity(v) as bigint;
        return id > 2n ** 53n - 1n || id < -(2n ** 53n - 1n) ? 'id is too large.' : undefined;
      },
    },
  },
  'int64-max-refused': {
    class: 'numbers',
    flaw: 'refuses the largest int64 itself (an exclusive upper bound)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*id must be below 9223372036854775807/,
    behaviour: { refuse: (v) => (REFERENCE.identity(v) === 2n ** 63n - 1n ? 'id must be below 9223372036854775807.' : undefined) },
  },
  'integral-forms-refused': {
    class: 'numbers',
    flaw: 'refuses integers written with a fraction or an exponent (1.0, 1e3): a strict integer parser',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 400; .*id must be written as digits/,
    behaviour: { refuse: (_v, text) => (/[.eE]/.test(idLiteral(text) ?? '') ? 'id must be written as digits.' : undefined) },
  },
  'fractions-truncated': {
    class: 'numbers',
    flaw: 'truncates a fractional id (1.5 becomes 1) instead of refusing it',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: id is (an integer; 1\.5 is not|the largest id plus a half)/,
    behaviour: {
      validate: (value, text) => {
        const literal = idLiteral(text);
        const record = value as Record<string, unknown>;
        if (literal && /\./.test(literal) && record && typeof record === 'object' && typeof record.id === 'number') return REFERENCE.validate({ ...record, id: 1 }, text);
        return REFERENCE.validate(value, text);
      },
      identity: (value) => {
        const id = (value as { id: number }).id;
        return Number.isInteger(id) ? (REFERENCE.identity(value) as bigint) : BigInt(Math.trunc(id));
      },
    },
  },
  'numeric-string-ids-coerced': {
    class: 'numbers',
    flaw: 'coerces a string of digits to an id (Ajv coerceTypes)',
    caughtBy: 'negative_data_rejection',
    says: /not a NewPlant: (id is a string|id is "7"|a string)/,
    behaviour: {
      validate: (value, text) => {
        const v = value as Record<string, unknown>;
        return v && typeof v === 'object' && typeof v.id === 'string' && /^-?\d+$/.test(v.id) ? REFERENCE.validate({ ...v, id: 1 }, text) : REFERENCE.validate(value, text);
      },
      identity: (v) => String((v as { id: unknown }).id),
    },
  },
  'huge-number-crashes': {
    class: 'numbers',
    flaw: 'fails (500) on an id such as 1e400 (BigInt of Infinity throws)',
    caughtBy: 'not_a_server_error',
    says: /Answered 500, a server error/,
    behaviour: {
      validate: (value, text) => {
        const literal = idLiteral(text);
        if (literal && /e/i.test(literal)) BigInt(Number(literal));
        return REFERENCE.validate(value, text);
      },
    },
  },
  // Authentication.
  'auth-ignored': { class: 'auth', flaw: 'never checks credentials', caughtBy: 'ignored_auth', says: /Answered 200 to a request with no Authorization header/, behaviour: { authorize: () => true } },
  'any-authorization-accepted': {
    class: 'auth',
    flaw: 'accepts any Authorization header, whatever its scheme',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with Authorization: Basic /,
    behaviour: { authorize: (req) => req.headers.authorization !== undefined },
  },
  'bearer-token-not-checked': {
    class: 'auth',
    flaw: 'checks the Bearer scheme but not the token',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with Authorization: Bearer contract-suite-invalid-/,
    behaviour: { authorize: (req) => /^bearer\b/i.test(req.headers.authorization ?? '') },
  },
  'scheme-case-sensitive': {
    class: 'auth',
    flaw: 'accepts the scheme only when spelled "Bearer" (RFC 7235 makes it case-insensitive)',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 401/,
    behaviour: { authorize: (req, token) => req.headers.authorization === `Bearer ${token}` || /^Bearer +(\S+)$/.exec(req.headers.authorization ?? '')?.[1] === token },
  },
  'single-space-only': {
    class: 'auth',
    flaw: 'splits the header on one space, so "Bearer  token" (two spaces) fails',
    caughtBy: 'positive_data_acceptance',
    says: /refused with 401/,
    behaviour: {
      authorize: (req, token) => {
        const [scheme, credential] = (req.headers.authorization ?? '').split(' ');
        return scheme?.toLowerCase() === 'bearer' && credential === token;
      },
    },
  },
  'token-without-scheme-accepted': {
    class: 'auth',
    flaw: 'strips an optional "Bearer " prefix, so the bare token is accepted too',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with Authorization: <token>;/,
    behaviour: { authorize: (req, token) => (req.headers.authorization ?? '').replace(/^bearer +/i, '') === token },
  },
  'token-compared-by-prefix': {
    class: 'auth',
    flaw: 'compares the token by prefix, so an empty or shortened token passes',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with Authorization: Bearer/,
    behaviour: {
      authorize: (req, token) => {
        const match = /^bearer *(.*)$/i.exec(req.headers.authorization ?? '');
        return match !== null && token.startsWith(match[1] as string);
      },
    },
  },
  'token-case-insensitive': {
    class: 'auth',
    flaw: 'compares tokens ignoring letter case',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with Authorization: Bearer \$\{PLANT_STORE_TOKEN~~\};/,
    behaviour: {
      authorize: (req, token) => {
        const values = rawHeaderValues(req, 'authorization');
        return values.length === 1 && /^bearer +(\S+)$/i.exec(values[0] as string)?.[1]?.toLowerCase() === token.toLowerCase();
      },
    },
  },
  // Response-side faults.
  'duplicate-answer-names': {
    class: 'response',
    flaw: 'answers the Plant with name written twice, null first (a template that writes a default, then the value)',
    caughtBy: 'response_schema_conformance',
    says: /names name twice/,
    behaviour: {
      serialize: (value) => {
        const text = JSON.stringify(value);
        return value !== null && typeof value === 'object' && 'name' in value ? `{"name":null,${text.slice(1)}` : text;
      },
    },
  },
  'plant-without-name': {
    class: 'response',
    flaw: 'drops name from the created Plant',
    caughtBy: 'response_schema_conformance',
    says: /200 body is not a Plant: .*name is required/,
    behaviour: {
      plant: (v) => {
        const { name: _name, ...rest } = REFERENCE.plant(v);
        return rest;
      },
    },
  },
  'tag-dropped': {
    class: 'response',
    flaw: 'drops tag from the created Plant',
    caughtBy: 'response_echoes_request',
    says: /The answer has no tag, but the request sent tag/,
    behaviour: { plant: (v) => ({ name: v.name }) },
  },
  'tag-renamed': {
    class: 'response',
    flaw: 'answers tag under another name (label)',
    caughtBy: 'response_echoes_request',
    says: /The answer has no tag, but the request sent tag/,
    behaviour: { plant: (v) => (v.tag === undefined ? { name: v.name } : { name: v.name, label: v.tag }) },
  },
  'plant-tag-as-number': {
    class: 'response',
    flaw: 'answers tag as a number (its length)',
    caughtBy: 'response_schema_conformance',
    says: /200 body is not a Plant: tag must be a string/,
    behaviour: { plant: (v) => (v.tag === undefined ? { name: v.name } : { name: v.name, tag: String(v.tag).length }) },
  },
  'name-echoed-upper-case': {
    class: 'response',
    flaw: 'answers the name upper-cased',
    caughtBy: 'response_echoes_request',
    says: /The answer's name is "MONSTERA", but the request sent "Monstera"/,
    behaviour: mapStrings((s) => s.toUpperCase()),
  },
  'error-without-message': {
    class: 'response',
    flaw: 'answers 400 with an Error that has no message',
    caughtBy: 'response_schema_conformance',
    says: /400 body is not an Error: .*message is required/,
    behaviour: { error: (status, message) => ({ body: status === 400 ? { error: 400 } : { error: status, message }, contentType: 'application/json' }) },
  },
  'error-message-not-string': {
    class: 'response',
    flaw: 'answers 400 with an Error whose message is an object of field errors',
    caughtBy: 'response_schema_conformance',
    says: /400 body is not an Error: message must be a string/,
    behaviour: { error: (status, message) => ({ body: status === 400 ? { error: 400, message: { body: [message] } } : { error: status, message }, contentType: 'application/json' }) },
  },
  'error-code-beyond-int32': {
    class: 'response',
    flaw: 'answers an Error whose code is past int32',
    caughtBy: 'response_schema_conformance',
    says: /400 body is not an Error: error must be an integer from -2147483648 to 2147483647/,
    behaviour: { error: (status, message) => ({ body: { error: status === 400 ? 4_000_000_000 : status, message }, contentType: 'application/json' }) },
  },
  'error-code-as-string': {
    class: 'response',
    flaw: 'answers an Error whose code is a string ("400")',
    caughtBy: 'response_schema_conformance',
    says: /400 body is not an Error: error must be an integer/,
    behaviour: { error: (status, message) => ({ body: { error: String(status), message }, contentType: 'application/json' }) },
  },
  'created-201': {
    class: 'response',
    flaw: 'answers 201 where the spec says 200',
    caughtBy: 'status_code_conformance',
    says: /Accepted a valid body with 201; the spec's success status is 200 exactly/,
    behaviour: { successStatus: 201 },
  },
  'plant-as-text-plain': {
    class: 'response',
    flaw: 'labels the created Plant text/plain',
    caughtBy: 'content_type_conformance',
    says: /200 answer says Content-Type: text\/plain; the spec says application\/json/,
    behaviour: { contentType: 'text/plain' },
  },
  'parse-errors-as-text-plain': {
    class: 'response',
    flaw: 'labels the 400 for malformed JSON text/plain (only those: its framework answers them), though the body is an Error',
    caughtBy: 'content_type_conformance',
    says: /400 answer says Content-Type: text\/plain/,
    behaviour: {
      error: (status, message) => ({ body: { error: status, message }, contentType: status === 400 && message.startsWith('The body is not JSON') ? 'text/plain; charset=utf-8' : 'application/json' }),
    },
  },
  // Transport.
  hangs: { class: 'transport', flaw: 'never answers', caughtBy: 'not_a_server_error', says: /No complete answer within 300 ms/, timeoutMs: 300, behaviour: { intercept: () => true } },
  'drops-connection': {
    class: 'transport',
    flaw: 'closes every connection without answering',
    caughtBy: 'not_a_server_error',
    says: /connection failed before a complete answer/,
    behaviour: {
      intercept: ({ req }) => {
        req.socket.destroy();
        return true;
      },
    },
  },
  'too-large-for-everything': {
    class: 'transport',
    flaw: 'answers 413 (too large) to every request, whatever its size',
    caughtBy: 'positive_data_acceptance',
    says: /Refused a valid \d+-byte body with 413 \(too large\)/,
    behaviour: {
      intercept: ({ res }) => {
        REFERENCE.send(res, 413, JSON.stringify({ error: 413, message: 'Too large.' }), { 'content-type': 'application/json' });
        return true;
      },
    },
  },
  'drops-large-bodies': {
    class: 'transport',
    flaw: 'drops the connection on bodies over 16 KiB, a limit the spec does not declare',
    caughtBy: 'not_a_server_error',
    says: /connection failed before a complete answer/,
    behaviour: {
      intercept: ({ req, raw }) => {
        if (raw.length <= 16 * 1024) return false;
        req.socket.destroy();
        return true;
      },
    },
  },
};
