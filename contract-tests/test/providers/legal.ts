/**
 * Legal variants: correct providers that make a choice the spec or the RFCs leave open, each the
 * reference provider with one step done differently. A naive suite would fail several of them;
 * ours must pass each twice in a row on the same instance, and report the choice where it is a
 * warning or a provider choice. docs/contract-mutations.md lists them.
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { CheckName, Severity } from '../../model.js';
import { rawHeaderValues, REFERENCE, type Behaviour } from './provider.js';

export interface LegalProvider {
  /** The choice it makes, in one sentence (the doc table's words). */
  variation: string;
  behaviour: Partial<Behaviour>;
  /** What the report must say about the choice, if anything (never a failure). */
  reports?: { check: CheckName; severity: Exclude<Severity, 'failure'>; message: RegExp };
}

const problem = (status: number, detail: string) => ({ body: { type: 'about:blank', title: `Error ${status}`, status, detail }, contentType: 'application/problem+json' });
const escapeNonAscii = (text: string): string => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** The reference parse, with repeated member names refused, or the first of them kept (the reference keeps the last). */
const withDuplicates =
  (policy: 'refuse' | 'first') =>
  (text: string): unknown => {
    const firstWins = parseLossless(text, null, {
      onDuplicateKey: ({ key, oldValue }) => {
        if (policy === 'refuse') throw new SyntaxError(`the name ${key} is repeated`);
        return oldValue;
      },
    });
    // lossless-json keeps every number's digits, so the text it writes back parses to the same exact values.
    return REFERENCE.parse(stringifyLossless(firstWins) as string);
  };
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const LEGAL: Record<string, LegalProvider> = {
  reference: {
    variation: 'the reference: 401 for bad credentials, 409 for a repeated id, strict RFC 8259 parsing',
    behaviour: {},
    reports: { check: 'status_code_conformance', severity: 'warning', message: /Answered 401/ },
  },
  'extra-response-fields': {
    variation: 'adds fields to the Plant (the id, a creation time)',
    behaviour: { plant: (v) => ({ id: String(REFERENCE.identity(v)), createdAt: new Date().toISOString(), ...REFERENCE.plant(v) }) },
  },
  'unauthenticated-400': {
    variation: 'answers bad credentials with 400 and an Error',
    behaviour: { unauthenticatedStatus: 400 },
    reports: { check: 'ignored_auth', severity: 'warning', message: /with 400; 401 is the conventional answer/ },
  },
  'unauthenticated-403': { variation: 'answers bad credentials with 403', behaviour: { unauthenticatedStatus: 403 }, reports: { check: 'ignored_auth', severity: 'warning', message: /with 403/ } },
  'repeats-accepted': { variation: 'accepts a repeated id (stores it again)', behaviour: { duplicateStatus: undefined } },
  'repeats-answered-400': {
    variation: 'answers a repeated id with 400 and an Error, as it answers an invalid body (ambiguous: fixed-id cases answered 400 are warnings)',
    behaviour: { duplicateStatus: 400 },
    reports: { check: 'positive_data_acceptance', severity: 'warning', message: /A repeated id is answered 400, the status this provider also gives bodies the spec rejects/ },
  },
  charset: {
    variation: 'says application/json; charset=utf-8 on every answer',
    behaviour: { contentType: 'application/json; charset=utf-8', error: (status, message) => ({ body: { error: status, message }, contentType: 'application/json; charset=utf-8' }) },
  },
  'unprocessable-422': {
    variation: 'answers invalid bodies with 422 application/problem+json',
    behaviour: { invalidStatus: 422, error: (status, message) => (status === 422 ? problem(422, message) : REFERENCE.error(status, message)) },
    reports: { check: 'status_code_conformance', severity: 'warning', message: /Answered 422/ },
  },
  'problem-json-except-400': {
    variation: 'answers every undeclared error (401, 409, 415 …) as application/problem+json, and the declared 400 as the Error',
    behaviour: { error: (status, message) => (status === 400 ? REFERENCE.error(status, message) : problem(status, message)) },
  },
  'any-content-type': {
    variation: 'reads JSON whatever the Content-Type says',
    behaviour: { mediaTypeAccepted: () => true },
    reports: { check: 'negative_data_rejection', severity: 'warning', message: /Accepted \(200\) a JSON body sent as text\/plain/ },
  },
  'pretty-printed': { variation: 'pretty-prints every answer', behaviour: { serialize: (value) => `${JSON.stringify(value, null, 2)}\n` } },
  'ascii-escaped': { variation: 'escapes every non-ASCII character as \\uXXXX in its answers', behaviour: { serialize: (value) => escapeNonAscii(JSON.stringify(value)) } },
  chunked: {
    variation: 'answers with chunked transfer encoding, in several chunks',
    behaviour: {
      send(res, status, text, headers) {
        res.writeHead(status, headers);
        const bytes = Buffer.from(text, 'utf8');
        for (let at = 0; at < bytes.length; at += 7) res.write(bytes.subarray(at, at + 7));
        res.end();
      },
    },
  },
  slow: {
    // Late by turns of its event loop, not by a time: the suite must wait for answers that are not there at once.
    variation: 'answers every request late, after its event loop has turned, never at once',
    behaviour: { send: (res, status, text, headers) => void setImmediate(() => REFERENCE.send(res, status, text, headers)) },
  },
  'bom-ignored': {
    variation: 'ignores a leading byte order mark (RFC 8259 §8.1 allows it)',
    behaviour: { parse: (text) => REFERENCE.parse(text.replace(/^\ufeff/, '')) },
    reports: { check: 'negative_data_rejection', severity: 'info', message: /byte order mark: the provider accepted it/ },
  },
  'duplicate-names-refused': {
    variation: 'refuses a body with a repeated member name',
    behaviour: { parse: withDuplicates('refuse') },
    reports: { check: 'negative_data_rejection', severity: 'info', message: /given twice with different values: the provider refused it \(400\)/ },
  },
  'duplicate-names-first-wins': {
    variation: 'keeps the first of repeated member names',
    behaviour: { parse: withDuplicates('first') },
    reports: { check: 'negative_data_rejection', severity: 'info', message: /given twice with different values: the provider accepted it/ },
  },
  'lone-surrogates-replaced': {
    variation: 'replaces an unpaired surrogate with U+FFFD',
    behaviour: { serialize: (value) => JSON.stringify(value, (_k, v) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\ufffd') : v)) },
  },
  'nesting-limited': {
    variation: 'refuses JSON nested deeper than 64 levels with 400',
    behaviour: {
      parse: (text) => {
        if (/[[{]{65}/.test(text.replace(/\s/g, ''))) throw new SyntaxError('nested too deep');
        return REFERENCE.parse(text);
      },
    },
    reports: { check: 'negative_data_rejection', severity: 'info', message: /nested 10000 deep: the provider refused it \(400\)/ },
  },
  'body-limit-32k': {
    variation: 'refuses bodies over 32 KiB with 413 (a limit the spec leaves open)',
    behaviour: {
      intercept: ({ res, raw }) => {
        if (raw.length <= 32 * 1024) return false;
        REFERENCE.send(res, 413, JSON.stringify({ error: 413, message: 'The body is over 32 KiB.' }), { 'content-type': 'application/json' });
        return true;
      },
    },
    reports: { check: 'positive_data_acceptance', severity: 'warning', message: /with 413; the spec declares no size limit/ },
  },
  'lenient-authorization': {
    variation: 'accepts a tab before the token and the first of repeated Authorization headers',
    behaviour: { authorize: (req, token) => /^bearer[ \t]+(\S+)$/i.exec(rawHeaderValues(req, 'authorization')[0] ?? '')?.[1] === token },
    reports: { check: 'ignored_auth', severity: 'info', message: /a tab between the scheme and the token: the provider accepted it/ },
  },
};
