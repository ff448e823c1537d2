/**
 * response_schema_conformance: a body of a declared status, in a JSON media type the spec declares
 * for it, is the spec's schema for it (for the bundled spec: a 200 is a Plant, a 400 an Error with
 * both fields), parsed exactly, so an int32 or int64 is judged on its real digits; it names no
 * member twice, and holds no property the schema marks writeOnly. Extra fields are allowed where
 * the schema allows them. The one judge decides (./judged-answer.ts); this check words it. A
 * schema that accepts no value at all (openapi/schema/no-value.ts) is the spec's fault: a warning.
 */
import { problemsText } from '../../openapi/schema/problems.js';
import type { Check, Problem } from '../model.js';
import { declaredResponse } from '../spec-contract.js';
import { judgedAnswer, violationsOf } from './judged-answer.js';
import { cutBody, failure, warning } from './verdicts.js';

export const responseSchemaConformance: Check = {
  name: 'response_schema_conformance',
  proves: "bodies of declared statuses match the spec's schema for them (parsed exactly: int32 and int64 on their digits)",
  judge(exchange, run) {
    const judged = judgedAnswer(exchange, run);
    if (judged?.cut) return [cutBody(`The ${judged.response.status} body`)];
    if (!judged?.bodyJudged) return undefined;
    const { status } = judged.response;
    const declared = declaredResponse(run.contract, status);
    const what = `The ${status} body`;
    const name = declared?.schemaName === undefined ? 'the declared schema' : `${/^[AEIOU]/.test(declared.schemaName) ? 'an' : 'a'} ${declared.schemaName}`;
    const problems: Problem[] = [];
    for (const { code, facts } of violationsOf(
      judged,
      'UPSTREAM_MALFORMED_BODY',
      'UPSTREAM_DUPLICATE_MEMBER_NAME',
      'UPSTREAM_INVALID_BODY',
      'UPSTREAM_SCHEMA_ACCEPTS_NOTHING',
      'UPSTREAM_WRITE_ONLY',
    )) {
      // No provider can match a schema that accepts no value: the spec's fault, reported, never the provider's.
      if (code === 'UPSTREAM_SCHEMA_ACCEPTS_NOTHING')
        problems.push(warning(`${what} cannot be judged: the spec's schema for it accepts no value (${facts.reason}), so no body could pass. Fix the spec.`));
      else if (code === 'UPSTREAM_MALFORMED_BODY') problems.push(failure(`${what} must be ${name}, but ${facts.empty ? 'the body is empty' : `the body is not JSON (${facts.detail})`}.`));
      else if (code === 'UPSTREAM_DUPLICATE_MEMBER_NAME')
        problems.push(
          failure(
            `${what} names ${facts.member} twice (at ${facts.pointer}); RFC 8259 §4: names should be unique, and clients that keep the first or the last may read different ${name.replace(/^an? /, '')}s.`,
          ),
        );
      else if (code === 'UPSTREAM_INVALID_BODY') problems.push(failure(`${what} is not ${name}: ${problemsText({ sentences: facts.problems, more: facts.more ?? 0, fields: [] })}.`));
      else {
        const { pointers } = facts;
        problems.push(
          failure(
            `${what} holds ${pointers.slice(0, 3).join(', ')}${pointers.length > 3 ? ` and ${pointers.length - 3} more` : ''}, declared writeOnly: a property sent to the provider and never answered (OpenAPI: writeOnly properties are not sent in a response).`,
          ),
        );
      }
    }
    return problems;
  },
};
