/**
 * Prism's answers judged against the spec's own schemas (the contract's validators, which the
 * stateful mock and the contract suite judge by), not Prism's copy of them: its samplers make up
 * bodies that break their schema (a recursive `Node` sampled as `children: [{}]`, its `value`
 * missing), and Prism's own check of its answer only reports that.
 */
import type { IHttpResponse } from '@stoplight/prism-http';
import { isJsonMediaType, matchingMedia } from '../../openapi/media-types.js';
import { type ContractMediaType, type ContractOperation } from '../../openapi/operations/model.js';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { declaredFor } from '../engine/error-answers.js';
import { exactJson } from '../http/answer.js';

/** How many more answers are made up, at most, when one breaks its schema. */
export const ANSWER_ATTEMPTS = 10;

/** What the spec declares for `output`: its JSON media type (undefined: no JSON schema to judge it by). */
export function declaredMedia(operation: ContractOperation | undefined, output: IHttpResponse): ContractMediaType | undefined {
  if (!operation || output.body === undefined || typeof output.body === 'string') return undefined;
  const header = Object.entries(output.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (typeof header !== 'string') return undefined;
  const content = declaredFor(operation, output.statusCode)?.content;
  const key = content && matchingMedia(content.keys(), header);
  const media = key === undefined ? undefined : content?.get(key);
  return media?.validate && isJsonMediaType(header) ? media : undefined;
}

/** Whether Prism made `output` up from the schema rather than answering one of the spec's examples. */
export function madeUp(media: ContractMediaType, dynamic: boolean): boolean {
  return dynamic || media.examples.length === 0;
}

export interface AnswerVerdict {
  /** How the answer breaks its schema, as a client would read its bytes; empty when it fits. */
  problems: string[];
  /**
   * Whether making it up again may help. Not when a string breaks its pattern: that is a pattern
   * no string was made for at start (openapi/schema/pattern-strings.ts), one json-schema-faker could take
   * without bound to expand (`^((a{1000}){1000}){1000}$`); Prism's value is kept. Nor when an
   * array or string is shorter than its minItems or minLength: both samplers honour those, so it
   * is one ./operations.ts bounded (`minItems: 100000000`), and every try would be as short.
   */
  remake: boolean;
}

export function judgeAnswer(media: ContractMediaType, output: IHttpResponse): AnswerVerdict {
  const value = parseExactJson(exactJson(output.body));
  if (media.validate?.(value) !== false) return { problems: [], remake: false };
  const errors = media.validate.errors;
  const { sentences, more } = describeProblems(errors, { root: value });
  return {
    problems: [...sentences.map((sentence) => `Response body ${sentence}`), ...(more ? [`and ${more} more`] : [])],
    remake: !(errors ?? []).some((error) => error.keyword === 'pattern' || error.keyword === 'minItems' || error.keyword === 'minLength'),
  };
}
