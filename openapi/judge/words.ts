/**
 * The words of the judge's verdicts on an answer, by code. The mock's catalogue (mocks/errors.ts)
 * lists these codes with these very words, so a verdict reads the same in the proxy's header, the
 * journal, the Prism edge's `sl-violations` and the mock's own --self-check. `by` names who
 * answered: the upstream behind the proxy unless said otherwise (`the mock`, `Prism`).
 */
import { problemsText } from '../schema/problems.js';

interface Answered {
  /** `createPlant (POST /plants)`. */
  operation: string;
  status: number;
  /** Who answered, lower case: `the upstream` when absent. */
  by?: string;
}

const UPSTREAM = 'the upstream';
const who = (by: string | undefined): string => {
  const name = by ?? UPSTREAM;
  return name.charAt(0).toUpperCase() + name.slice(1);
};
const answer = ({ by, status, operation }: Answered): string => `${who(by)}'s ${status} answer to ${operation}`;
const listed = (problems: readonly string[], more = 0): string => problemsText({ sentences: [...problems], more, fields: [] });

export const RESPONSE_WORDS = {
  UPSTREAM_UNDECLARED_STATUS: (p: Answered & { declared: string }): string =>
    `${who(p.by)} answered ${p.operation} with ${p.status}, a status the spec does not declare for it (declared: ${p.declared}).`,
  UPSTREAM_MEDIA_TYPE: (p: Answered & { contentType: string | undefined; expected: string }): string =>
    `${answer(p)} ${p.contentType === undefined ? 'has no Content-Type' : `says Content-Type '${p.contentType}'`}; the spec declares ${p.expected}.`,
  UPSTREAM_UNDECLARED_BODY: (p: Answered): string => `${answer(p)} carries a body; the spec declares none for ${p.status}.`,
  UPSTREAM_MALFORMED_BODY: (p: Answered & { detail: string; empty?: true }): string => `${answer(p)} is not valid JSON: ${p.detail}.`,
  UPSTREAM_DUPLICATE_MEMBER_NAME: (p: Answered & { member: string; pointer: string }): string =>
    `${answer(p)} names the member ${JSON.stringify(p.member)} twice in one object (at ${p.pointer || '/'}); RFC 8259 §4: names should be unique, and clients that keep the first or the last read different values.`,
  UPSTREAM_INVALID_BODY: (p: Answered & { schema: string; problems: string[]; more?: number; keywords?: string[] }): string =>
    `${answer(p)} is not a valid ${p.schema}: ${listed(p.problems, p.more)}.`,
  UPSTREAM_SCHEMA_ACCEPTS_NOTHING: (p: Answered & { schema: string; reason: string }): string =>
    `${answer(p)} cannot be a valid ${p.schema}: the spec's schema for it accepts no value (${p.reason}). The spec is at fault, not the answer.`,
  UPSTREAM_WRITE_ONLY: (p: Answered & { pointers: string[] }): string =>
    `${answer(p)} holds ${p.pointers.slice(0, 3).join(', ')}${p.pointers.length > 3 ? ` and ${p.pointers.length - 3} more` : ''}, declared writeOnly: a property sent to the service and never answered (OpenAPI).`,
  UPSTREAM_MISSING_HEADER: (p: Answered & { headers: string[] }): string =>
    `${answer(p)} has no ${p.headers.map((name) => `'${name}'`).join(', ')} header${p.headers.length > 1 ? 's' : ''}; the spec marks ${p.headers.length > 1 ? 'them' : 'it'} required for ${p.status}.`,
  UPSTREAM_INVALID_HEADER: (p: Answered & { header: string; value: string; problems: string[]; more?: number }): string =>
    `${answer(p)} has the '${p.header}' header ${p.value}, which the spec's schema for it refuses: ${listed(p.problems, p.more)}.`,
} as const;

export type ResponseCode = keyof typeof RESPONSE_WORDS;
/** The facts each verdict is worded from (the catalogue's parameters for its code). */
export type ResponseParams<C extends ResponseCode> = Parameters<(typeof RESPONSE_WORDS)[C]>[0];
