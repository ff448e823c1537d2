/**
 * An answer judged against the operation it answers: the status (exact, its range, `default`:
 * declaredFor), the headers the spec declares for it (./../operations/response-headers.ts), the
 * media type (./../media-types.ts), and a JSON body read exactly (ids beyond 2^53 on their digits;
 * repeated member names refused: ../schema/exact-json.ts) against the schema of that status and
 * media type, with no writeOnly property in it. Plain functions of the answer's head and bytes,
 * in two steps for a tool that streams (the proxy reads the body only when the head asks for it).
 *
 * Severity follows one rule for statuses: an undeclared 4xx is conventional (the spec leaves error
 * statuses unsaid: 401, 404, 409…), so it is a warning; any other undeclared status is an error.
 * An operation that declares no response at all (OpenAPI requires one; documents omit it) leaves
 * every answer open.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import { declaredFor, type ContractMediaType, type ContractOperation, type ContractResponse } from '../operations/model.js';
import { isJsonMediaType, matchingMedia, mediaEssence } from '../media-types.js';
import { DuplicateMemberName, parseExactJson } from '../schema/exact-json.js';
import type { ParameterSource } from '../operations/parameters.js';
import { describeProblems } from '../schema/problems.js';
import { refName } from '../schema/resolve.js';
import { judgeHeaders } from '../operations/response-headers.js';
import type { JudgePolicy, ResponseViolation, ViolationSeverity } from './violation.js';
import { RESPONSE_WORDS, type ResponseCode, type ResponseParams } from './words.js';
import { writeOnlyLeaks } from './write-only.js';

/** What is known of an answer once its head has arrived. */
export interface ResponseHead {
  /** The request's method: an answer to HEAD has no body. */
  method: string;
  status: number;
  contentType: string | undefined;
  /** Content-Length when the answer gave one (or the body's length, when it is known). */
  contentLength: number | undefined;
  /** Every header, lower case (node's), to judge those the spec declares for the status. */
  headers: ParameterSource['headers'];
  /** Who answered, for the words (`the mock`); the upstream when absent. */
  by?: string;
}

/** An answer whole: its head, and its body as sent (any Content-Encoding undone), when there is one. */
export interface ReceivedResponse extends Omit<ResponseHead, 'contentType' | 'contentLength'> {
  body: Buffer | string | undefined;
}

/** The body check an answer still needs once its head is judged. */
export interface BodyCheck {
  media: ContractMediaType;
  /** The schema's name for messages (`Plant`, `Error`; `200 answer` when it has none). */
  schema: string;
  /**
   * The answer is labelled with a media type the status does not declare: its body is judged
   * against the status's JSON schema only if it is JSON (a wrong label is one problem, a broken
   * body another); a body that is not JSON at all is what its label says, and the label is the problem.
   */
  mislabelled?: true;
}

export interface HeadVerdict {
  violations: ResponseViolation[];
  /** Set when the body must be read and judged against a schema. */
  body: BodyCheck | undefined;
}

/** A verdict of its own each time: callers add to its violations. */
const nothing = (): HeadVerdict => ({ violations: [], body: undefined });

/** `createPlant (POST /plants)`, for messages. */
export function operationLabel(operation: ContractOperation): string {
  return `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
}

/** The whole answer: its head, then its body when the head asks for one to be judged. */
export function judgeResponse(operation: ContractOperation, response: ReceivedResponse, policy: JudgePolicy): ResponseViolation[] {
  const { body, ...rest } = response;
  const length = body === undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const contentType = response.headers['content-type'];
  const head: ResponseHead = { ...rest, contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType, contentLength: length };
  const verdict = judgeResponseHead(operation, head, policy);
  if (!verdict.body || body === undefined || (policy === 'first' && verdict.violations.length)) return verdict.violations;
  return [...verdict.violations, ...(judgeResponseBody(operation, head, verdict.body, body, policy) ?? [])];
}

/** Judges the status, the declared headers and the media type; says whether the body needs a schema check. */
export function judgeResponseHead(operation: ContractOperation, head: ResponseHead, policy: JudgePolicy = 'all'): HeadVerdict {
  if (!declaresAny(operation)) return nothing();
  const answered = answeredFacts(operation, head);
  const { status } = head;
  // As OpenAPI matches a status, and as the mock itself answers one: exact, then its range (`4XX`), then `default`.
  const declared = declaredFor(operation, status);
  if (!declared) {
    return { violations: [found('UPSTREAM_UNDECLARED_STATUS', { ...answered, declared: declaredList(operation) }, status >= 400 && status < 500 ? 'warning' : 'error')], body: undefined };
  }
  const headers = headerViolations(answered, declared, head.headers);
  if (policy === 'first' && headers.length) return { violations: headers.slice(0, 1), body: undefined };
  const verdict = judgeMediaType(answered, declared, head, policy);
  return headers.length ? { ...verdict, violations: [...headers, ...verdict.violations] } : verdict;
}

/**
 * Judges a whole body (any Content-Encoding undone) against the schema the head's verdict named;
 * undefined when it was not judged (a mislabelled body that is not JSON).
 */
export function judgeResponseBody(
  operation: ContractOperation,
  head: Pick<ResponseHead, 'status' | 'by'>,
  check: BodyCheck,
  body: Buffer | string,
  policy: JudgePolicy = 'all',
): ResponseViolation[] | undefined {
  const answered = answeredFacts(operation, head);
  const malformed = (detail: string, empty?: true): ResponseViolation[] | undefined =>
    check.mislabelled ? undefined : [found('UPSTREAM_MALFORMED_BODY', { ...answered, detail, ...(empty ? { empty } : {}) })];
  const emptyDetail = `the body is empty, and the spec declares a ${check.schema}`;
  if (body.length === 0) return malformed(emptyDetail, true);
  if (typeof body !== 'string' && !isUtf8(body)) return malformed('the body is not UTF-8 text, which JSON must be (RFC 8259)');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return malformed(emptyDetail, true);
  let value: unknown;
  try {
    // JSON.parse keeps the last of repeated names; clients differ (RFC 8259 §4): an answer must not depend on which.
    value = parseExactJson(text, undefined, { refuseDuplicateNames: true });
  } catch (error) {
    if (error instanceof DuplicateMemberName) return [found('UPSTREAM_DUPLICATE_MEMBER_NAME', { ...answered, member: error.member, pointer: error.pointer })];
    return malformed((error as Error).message);
  }
  const violations: ResponseViolation[] = [];
  const validate = check.media.validate;
  if (validate && !validate(value)) {
    // A schema no value matches fails every answer: the spec's fault, said as a warning, never the answer's.
    const noValue = check.media.noValue;
    if (noValue !== undefined) {
      violations.push(found('UPSTREAM_SCHEMA_ACCEPTS_NOTHING', { ...answered, schema: check.schema, reason: noValue }, 'warning'));
      return violations;
    }
    const errors = validate.errors ?? [];
    const { sentences, more } = describeProblems(errors, { root: value });
    violations.push(found('UPSTREAM_INVALID_BODY', { ...answered, schema: check.schema, problems: sentences, more, keywords: errors.map((error) => error.keyword) }));
    if (policy === 'first') return violations;
  }
  // A validator passes a writeOnly property (a password, a secret) in an answer; the spec says it is never answered.
  const inlined = check.media.inlined;
  const leaked = inlined ? writeOnlyLeaks(value, inlined) : [];
  if (leaked.length) violations.push(found('UPSTREAM_WRITE_ONLY', { ...answered, pointers: leaked }));
  return violations;
}

/** Whether an answer can carry a body (RFC 9110 §6.4.1): none answers HEAD, none comes with 1xx, 204 or 304. */
export function mayHaveBody(head: Pick<ResponseHead, 'method' | 'status'>): boolean {
  return !(head.method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304);
}

/** The headers the spec declares for the status: the required ones present, each one sent valid. */
function headerViolations(answered: Answered, declared: ContractResponse, headers: ResponseHead['headers']): ResponseViolation[] {
  if (!declared.headerParameters?.length) return [];
  const { missing, invalid } = judgeHeaders(declared.headerParameters, headers);
  const violations = missing.length ? [found('UPSTREAM_MISSING_HEADER', { ...answered, headers: missing })] : [];
  for (const { name, quoted, problems } of invalid) {
    violations.push(found('UPSTREAM_INVALID_HEADER', { ...answered, header: name, value: quoted, problems: problems.sentences, more: problems.more }));
  }
  return violations;
}

/** The media type of a declared status; whether the body needs a schema check. */
function judgeMediaType(answered: Answered, declared: ContractResponse, head: ResponseHead, policy: JudgePolicy): HeadVerdict {
  if (!mayHaveBody(head)) return nothing();
  if (declared.content.size === 0) {
    // A body the spec does not describe; an empty one (Content-Length: 0) is no body at all.
    if (head.contentLength === 0) return nothing();
    return { violations: [found('UPSTREAM_UNDECLARED_BODY', answered)], body: undefined };
  }
  const problem = (): HeadVerdict => {
    const violations = [found('UPSTREAM_MEDIA_TYPE', { ...answered, contentType: head.contentType, expected: `'${[...declared.content.keys()].join("' or '")}'` })];
    const json = policy === 'all' ? [...declared.content.values()].find((media) => media.schema && isJsonMediaType(mediaEssence(media.mediaType))) : undefined;
    return { violations, body: json && { ...bodyCheck(json, head.status), mislabelled: true } };
  };
  if (head.contentType === undefined) return problem();
  let type: string;
  try {
    type = parseContentType(head.contentType).type;
  } catch {
    return problem();
  }
  const key = matchingMedia(declared.content.keys(), type);
  const media = key === undefined ? undefined : declared.content.get(key);
  if (!media) return problem();
  // Only JSON bodies are parsed and judged against a schema; other media types by their type alone.
  if (!media.schema || !isJsonMediaType(type)) return nothing();
  return { violations: [], body: bodyCheck(media, head.status) };
}

function bodyCheck(media: ContractMediaType, status: number): BodyCheck {
  return { media, schema: refName(media.schema) ?? `${status} answer` };
}

type Answered = { operation: string; status: number; by?: string };

function answeredFacts(operation: ContractOperation, head: Pick<ResponseHead, 'status' | 'by'>): Answered {
  return { operation: operationLabel(operation), status: head.status, ...(head.by === undefined ? {} : { by: head.by }) };
}

function found<C extends ResponseCode>(code: C, facts: ResponseParams<C>, severity: ViolationSeverity = 'error'): ResponseViolation {
  const words = RESPONSE_WORDS[code] as (facts: ResponseParams<C>) => string;
  const problems = (facts as { problems?: string[] }).problems;
  return { in: 'response', severity, code, message: words(facts), ...(problems ? { problems } : {}), facts } as ResponseViolation;
}

function declaresAny(operation: ContractOperation): boolean {
  return operation.responses.size > 0 || (operation.ranges?.size ?? 0) > 0;
}

function declaredList(operation: ContractOperation): string {
  const statuses: string[] = [...operation.declaredStatuses.map(String), ...[...(operation.ranges?.keys() ?? [])].sort()];
  if (operation.responses.has('default')) statuses.push('default');
  return statuses.join(', ');
}
