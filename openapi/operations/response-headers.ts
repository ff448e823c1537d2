/**
 * An answer's headers judged against what the spec declares for its status: every header marked
 * `required` present (any letter case), and each declared header it carries valid against its
 * schema, read as OpenAPI writes a header (a Header Object is a header parameter without name and
 * in: style simple, coerced; openapi/operations/parameters.ts). One judge for the contract suite's
 * response_headers_conformance and the proxy's verdict on an upstream's answer.
 */
import type { ContractParameter } from './model.js';
import type { ParameterSource } from './parameters.js';
import { describeProblems, type Problems } from '../schema/problems.js';

export interface HeaderVerdict {
  /** Required headers the answer lacks, lower case. */
  missing: string[];
  /** Headers it carries that their schemas refuse: the name (lower case), the value as sent quoted (its first 80 characters), the problems. */
  invalid: { name: string; quoted: string; problems: Problems }[];
}

const NO_QUERY: ParameterSource['query'] = new Map();
/** How much of a header's value a message quotes: it comes from the other side. */
const QUOTED = 80;

/** `headers`: lower-case names, as node and fetch give them (repeated headers joined by `, ` or as a list). */
export function judgeHeaders(declared: readonly ContractParameter[], headers: ParameterSource['headers']): HeaderVerdict {
  const verdict: HeaderVerdict = { missing: [], invalid: [] };
  const source: ParameterSource = { path: {}, query: NO_QUERY, headers };
  for (const header of declared) {
    const raw = headers[header.name];
    if (raw === undefined) {
      if (header.required) verdict.missing.push(header.name);
      continue;
    }
    const validate = header.validate;
    const value = header.read(source);
    if (!validate || validate(value)) continue;
    const sent = Array.isArray(raw) ? raw.join(', ') : raw;
    const quoted = JSON.stringify(sent.length > QUOTED ? `${sent.slice(0, QUOTED)}…` : sent);
    verdict.invalid.push({ name: header.name, quoted, problems: describeProblems(validate.errors, { root: value, subject: 'the value' }) });
  }
  return verdict;
}
