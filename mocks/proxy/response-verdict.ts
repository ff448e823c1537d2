/**
 * The upstream's answer judged against the operation it answers: the status (declared or not),
 * the media type, and the body against the schema of that status and media type, parsed exactly
 * (ids beyond 2^53 judged on their digits). Plain functions of the answer's head and bytes.
 *
 * Severity follows the contract suite's rule for statuses: an undeclared 4xx is conventional
 * (the spec leaves error statuses unsaid: 401, 404, 409…), so it is a warning; any other
 * undeclared status is an error.
 */
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { ContractMediaType, ContractOperation, ContractResponse } from '../../openapi/operations/model.js';
import { isJsonMediaType, matchingMedia } from '../../openapi/media-types.js';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import type { ParameterSource } from '../../openapi/operations/parameters.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { judgeHeaders } from '../../openapi/operations/response-headers.js';
import { declaredFor } from '../engine/error-answers.js';
import { reject } from '../errors.js';
import { violation, type Violation } from './violations.js';

/** What the proxy knows of an answer once its head has arrived. */
export interface ResponseHead {
  /** The request's method: an answer to HEAD has no body. */
  method: string;
  status: number;
  contentType: string | undefined;
  /** Content-Length when the upstream sent one. */
  contentLength: number | undefined;
  /** Every header, lower case (node's), to judge those the spec declares for the status. */
  headers: ParameterSource['headers'];
}

/** The body check an answer still needs once its head is judged. */
export interface BodyCheck {
  media: ContractMediaType;
  /** The schema's name for messages (`Plant`, `Error`). */
  schema: string;
}

export interface HeadVerdict {
  violations: Violation[];
  /** Set when the body must be read and checked against a schema. */
  body: BodyCheck | undefined;
}

/** `createPlant (POST /plants)`, for messages. */
export function operationLabel(operation: ContractOperation): string {
  return `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
}

/** Judges the status, the declared headers and the media type; says whether the body needs a schema check. */
export function judgeResponseHead(operation: ContractOperation, head: ResponseHead): HeadVerdict {
  const label = operationLabel(operation);
  const { status } = head;
  // As OpenAPI matches a status, and as the mock itself answers one: exact, then its range (`4XX`), then `default`.
  const declared: ContractResponse | undefined = declaredFor(operation, status);
  if (!declared) {
    const rejection = reject('UPSTREAM_UNDECLARED_STATUS', { operation: label, status, declared: declaredList(operation) });
    return { violations: [violation('response', rejection, status >= 400 && status < 500 ? 'warning' : 'error')], body: undefined };
  }
  const headers = headerViolations(label, status, declared, head.headers);
  const verdict = judgeMediaType(label, declared, head);
  return headers.length ? { ...verdict, violations: [...headers, ...verdict.violations] } : verdict;
}

/** The headers the spec declares for the status: the required ones present, each one sent valid (openapi/operations/response-headers.ts). */
function headerViolations(label: string, status: number, declared: ContractResponse, headers: ResponseHead['headers']): Violation[] {
  if (!declared.headerParameters?.length) return [];
  const { missing, invalid } = judgeHeaders(declared.headerParameters, headers);
  const violations = missing.length ? [violation('response', reject('UPSTREAM_MISSING_HEADER', { operation: label, status, headers: missing }))] : [];
  for (const { name, quoted, problems } of invalid) {
    violations.push(violation('response', reject('UPSTREAM_INVALID_HEADER', { operation: label, status, header: name, value: quoted, problems: problems.sentences, more: problems.more })));
  }
  return violations;
}

/** The media type of a declared status; whether the body needs a schema check. */
function judgeMediaType(label: string, declared: ContractResponse, head: ResponseHead): HeadVerdict {
  const { status } = head;
  if (!mayHaveBody(head)) return { violations: [], body: undefined };
  if (declared.content.size === 0) {
    // A body the spec does not describe; an empty one (Content-Length: 0) is no body at all.
    if (head.contentLength === 0) return { violations: [], body: undefined };
    return { violations: [violation('response', reject('UPSTREAM_UNDECLARED_BODY', { operation: label, status }))], body: undefined };
  }
  const expected = [...declared.content.keys()].join("' or '");
  const mediaTypeProblem = (): HeadVerdict => ({
    violations: [violation('response', reject('UPSTREAM_MEDIA_TYPE', { operation: label, status, contentType: head.contentType, expected: `'${expected}'` }))],
    body: undefined,
  });
  if (head.contentType === undefined) return mediaTypeProblem();
  const key = matchingMedia(declared.content.keys(), head.contentType);
  const media = key === undefined ? undefined : declared.content.get(key);
  if (!media) return mediaTypeProblem();
  // Only JSON bodies are parsed and checked against a schema; other media types by their type alone.
  if (!media.schema || !isJsonMediaType(head.contentType)) return { violations: [], body: undefined };
  return { violations: [], body: { media, schema: schemaName(media, status) } };
}

/** Judges a whole body (already decoded) against the schema the head verdict named. */
export function judgeResponseBody(operation: ContractOperation, status: number, check: BodyCheck, bytes: Buffer): Violation[] {
  const label = operationLabel(operation);
  const malformed = (detail: string): Violation[] => [violation('response', reject('UPSTREAM_MALFORMED_BODY', { operation: label, status, detail }))];
  if (bytes.length === 0) return malformed(`the body is empty, and the spec declares a ${check.schema}`);
  if (!isUtf8(bytes)) return malformed('the body is not UTF-8 text, which JSON must be (RFC 8259)');
  let value: unknown;
  try {
    value = parseExactJson(bytes.toString('utf8'));
  } catch (error) {
    return malformed((error as Error).message);
  }
  const validate = check.media.validate;
  if (!validate || validate(value)) return [];
  const { sentences, more } = describeProblems(validate.errors, { root: value });
  return [violation('response', reject('UPSTREAM_INVALID_BODY', { operation: label, status, schema: check.schema, problems: sentences, more }))];
}

/**
 * The body as sent before any Content-Encoding, to judge it (what goes to the client stays
 * encoded): at most `limit` bytes once decoded, so a small compressed body cannot expand without
 * bound. A string when it cannot be judged: the reason.
 */
export function decodedForJudging(bytes: Buffer, contentEncoding: string | undefined, limit: number): Buffer | string {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = bytes;
  try {
    // Codings are listed in the order they were applied; undo them last first.
    for (const coding of codings.reverse()) {
      const options = { maxOutputLength: limit };
      if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body, options);
      else if (coding === 'br') body = brotliDecompressSync(body, options);
      else if (coding === 'deflate') body = inflateWithFallback(body, options);
      else return `it is encoded with ${coding}, which the proxy cannot decode`;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return `it is larger than ${limit} bytes once decoded (--max-body)`;
    return `its Content-Encoding cannot be decoded (${(error as Error).message})`;
  }
  return body;
}

/** `deflate` is meant to be zlib-wrapped (RFC 9110 §8.4.1.2); some servers send it raw. */
function inflateWithFallback(body: Buffer, options: { maxOutputLength: number }): Buffer {
  try {
    return inflateSync(body, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateRawSync(body, options);
  }
}

/** Whether an answer can carry a body (RFC 9110 §6.4.1): none answers HEAD, none comes with 1xx, 204 or 304. */
export function mayHaveBody(head: ResponseHead): boolean {
  return !(head.method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304);
}

function schemaName(media: ContractMediaType, status: number): string {
  const ref = media.schema?.$ref;
  return typeof ref === 'string' ? (ref.split('/').pop() as string) : `${status} answer`;
}

function declaredList(operation: ContractOperation): string {
  const statuses: string[] = [...operation.declaredStatuses.map(String), ...[...(operation.ranges?.keys() ?? [])].sort()];
  if (operation.responses.has('default')) statuses.push('default');
  return statuses.join(', ') || 'none';
}
