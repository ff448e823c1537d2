/**
 * A required request body is sent with every case meant as valid, the "every parameter" case
 * included: a body whose required members alone do not make a valid one (`minProperties`) used to go
 * out without a body there, and a correct provider's 400 failed positive_data_acceptance.
 */
import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { formatReport } from '../index.js';
import { generateCases } from '../generated.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const NOTE = { type: 'object', required: ['text'], minProperties: 2, additionalProperties: false, properties: { text: { type: 'string', maxLength: 20 }, colour: { type: 'string', maxLength: 20 } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes/search': {
      post: {
        operationId: 'searchNotes',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } }],
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: {
          '200': { description: 'found', content: { 'application/json': { schema: { type: 'array', items: NOTE } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
};

const provider: SmallHandler = (request, answer) => {
  const body = request.json() as Record<string, unknown> | undefined;
  const limit = request.url.searchParams.get('limit');
  const valid =
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.keys(body).length >= 2 &&
    Object.keys(body).every((k) => k === 'text' || k === 'colour') &&
    Object.values(body).every((v) => typeof v === 'string' && [...v].length <= 20) &&
    typeof body.text === 'string' &&
    (limit === null || (/^[0-9]+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 10));
  if (valid) answer(200, []);
  else answer(400, { message: 'invalid search' });
};

describe('a required request body', () => {
  const contract = compileSuiteSpec(SPEC, 'notes.json');
  it('goes with every case meant as valid, the every-parameter case included', () => {
    const operation = contract.operations[0];
    if (!operation) throw new Error('no operation');
    const { cases } = generateCases({ contract: operation, seed: 3, positive: 3, negative: 3, ids: createIdSource(), token: '', invalidToken: 'never' });
    const every = cases.find((c) => c.label === 'every-parameter');
    expect(typeof every?.body).toBe('string');
    expect(cases.filter((c) => c.expect === 'accepted' && c.body === undefined).map((c) => `${c.family}-${c.label}`)).toEqual([]);
  });

  it('lets a correct provider pass (it refuses a request without its body)', async () => {
    const report = await runSuiteAgainst(provider, { token: '', contract, seed: 3, generated: { positive: 5, negative: 5 } });
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
  });
});
