/**
 * response_schema_conformance: a body of a declared status is the spec's schema for it (for the
 * bundled spec: a 200 is a Plant, a 400 an Error with both fields), parsed losslessly, so an
 * int32 or int64 is judged on its real digits. Extra fields are allowed where the schema allows them.
 */
import type { Check } from '../model.js';
import { parseBody, schemaProblems } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const responseSchemaConformance: Check = {
  name: 'response_schema_conformance',
  proves: "bodies of declared statuses match the spec's schema for them (parsed exactly: int32 and int64 on their digits)",
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && contract.responses.get(response.status);
    if (!response || !declared?.validate) return undefined;
    const what = `The ${response.status} body`;
    const name = declared.schemaName === undefined ? 'the declared schema' : `${/^[AEIOU]/.test(declared.schemaName) ? 'an' : 'a'} ${declared.schemaName}`;
    const parsed = parseBody(response.body);
    if (!parsed.ok) return [failure(`${what} must be ${name}, but ${parsed.problem}.`)];
    const problems = schemaProblems(declared.validate, parsed.value);
    if (!problems) return [];
    return [failure(`${what} is not ${name}: ${problems}.`)];
  },
};
