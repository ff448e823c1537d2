/**
 * response_schema_conformance: a body of a declared status is the spec's schema for it — a
 * 200 is a Plant, a 400 is an Error with both fields — parsed losslessly, so an int32 or
 * int64 is judged on its real digits. Extra fields are allowed (the schemas allow them).
 */
import type { Check } from '../model.js';
import { createPlantContract, parseBody, schemaProblems } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const responseSchemaConformance: Check = {
  name: 'response_schema_conformance',
  proves: "200 bodies are Plants and 400 bodies are Errors (integer int32 'error', string 'message'), by the spec's schemas",
  judge(exchange) {
    const response = answered(exchange);
    const declared = response && createPlantContract().responses.get(response.status);
    if (!response || !declared?.validate) return undefined;
    const what = `The ${response.status} body`;
    const parsed = parseBody(response.body);
    if (!parsed.ok) return [failure(`${what} must be a ${declared.schemaName}, but ${parsed.problem}.`)];
    const problems = schemaProblems(declared.validate, parsed.value);
    if (!problems.length) return [];
    return [failure(`${what} is not a ${declared.schemaName}: ${problems.join('; ')}.`)];
  },
};
