/**
 * Prism's answers judged by the one judge (openapi/judge/), as they go on the wire: the status,
 * the media type, the headers the spec declares for the status, and the body against the spec's
 * own schemas (the contract's validators, which the stateful mock, the proxy and the contract
 * suite judge by), not Prism's copy of them: its samplers make up bodies that break their schema
 * (a recursive `Node` sampled as `children: [{}]`, its `value` missing), and Prism's own check of
 * its answer judges by its copy.
 */
import type { IHttpResponse } from '@stoplight/prism-http';
import { judgeResponse } from '../../openapi/judge/response.js';
import type { ResponseViolation } from '../../openapi/judge/violation.js';
import { isJsonMediaType, matchingMedia, parseMediaType } from '../../openapi/media-types.js';
import { declaredFor, type ContractMediaType, type ContractOperation } from '../../openapi/operations/model.js';
import { exactJson } from '../http/answer.js';

/** How many more answers are made up, at most, when one breaks its schema. */
export const ANSWER_ATTEMPTS = 10;

/** Who answered, in the judge's words. */
const PRISM = 'the Prism mock';

/** Prism's answer as the edge writes it: headers in lower case, a JSON body written exactly, `application/json` when Prism named no type. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | undefined;
}

export function wireAnswer(output: IHttpResponse): WireAnswer {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(output.headers ?? {})) headers[name.toLowerCase()] = value as string | string[];
  const body = output.body === undefined || typeof output.body === 'string' ? (output.body as string | undefined) : exactJson(output.body);
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  // Named, not left to Node: Node counts the body only when it sends it, and a HEAD's answer sends none.
  if (body !== undefined && output.statusCode !== 204 && output.statusCode !== 304) headers['content-length'] = String(Buffer.byteLength(body));
  return { status: output.statusCode, headers, body };
}

/** What the spec declares for an answer: its JSON media type (undefined: no JSON schema to judge it by). */
export function declaredMedia(operation: ContractOperation | undefined, answer: WireAnswer): ContractMediaType | undefined {
  const header = answer.headers['content-type'];
  if (!operation || answer.body === undefined || typeof header !== 'string') return undefined;
  const type = parseMediaType(header).essence;
  const content = declaredFor(operation, answer.status)?.content;
  const key = content && matchingMedia(content.keys(), type);
  const media = key === undefined ? undefined : content?.get(key);
  return media?.validate && isJsonMediaType(header) ? media : undefined;
}

/** Whether Prism made the answer up from the schema rather than answering one of the spec's examples. */
export function madeUp(media: ContractMediaType, dynamic: boolean): boolean {
  return dynamic || media.examples.length === 0;
}

export interface AnswerVerdict {
  violations: ResponseViolation[];
  /** The violations for `sl-violations`: a body's problems one by one (`Response body …`), the others in the judge's words. */
  words: string[];
  /**
   * Whether making it up again may help: its body breaks its schema, and not because a string
   * breaks its pattern: that is a pattern no string was made for at start
   * (openapi/schema/pattern-strings.ts), one json-schema-faker could take without bound to expand
   * (`^((a{1000}){1000}){1000}$`); Prism's value is kept. Nor when an array or string is shorter
   * than its minItems or minLength: both samplers honour those, so it is one ./operations.ts
   * bounded (`minItems: 100000000`), and every try would be as short.
   */
  remake: boolean;
}

/** The one judge's verdict on Prism's answer to `method`. */
export function judgeAnswer(operation: ContractOperation, method: string, answer: WireAnswer): AnswerVerdict {
  const violations = judgeResponse(operation, { method, status: answer.status, headers: answer.headers, body: answer.body, by: PRISM }, 'all');
  const words: string[] = [];
  let remake = false;
  for (const violation of violations) {
    if (violation.code !== 'UPSTREAM_INVALID_BODY') {
      words.push(violation.message);
      continue;
    }
    const { problems, more, keywords = [] } = violation.facts;
    words.push(...problems.map((sentence) => `Response body ${sentence}`), ...(more ? [`and ${more} more`] : []));
    remake = !keywords.some((keyword) => keyword === 'pattern' || keyword === 'minItems' || keyword === 'minLength');
  }
  return { violations, words, remake };
}
