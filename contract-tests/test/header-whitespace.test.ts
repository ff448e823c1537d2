/**
 * A header parameter's value is what arrives: RFC 9110 §5.5 leaves a field value's leading and
 * trailing whitespace out of it (Node's parser, like every server's, strips it). CAMARA's
 * `x-correlator` (pattern `^[a-zA-Z0-9-_:;.\/<>{}]{0,256}$`) was sent " " as "a string the pattern does
 * not match": the provider read "", which the pattern matches, and a correct provider's 201 failed
 * negative_data_rejection.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const PATTERN = '^[a-zA-Z0-9-_:;.\\/<>{}]{0,256}$';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Quality on demand', version: '1' },
  paths: {
    '/sessions': {
      post: {
        operationId: 'createSession',
        parameters: [{ name: 'x-correlator', in: 'header', schema: { type: 'string', pattern: PATTERN, maxLength: 256 } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['qosProfile'], properties: { qosProfile: { type: 'string', maxLength: 20 } } } } },
        },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: { type: 'object', properties: { qosProfile: { type: 'string' } } } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
};

/** A correct provider: the header judged as it arrived, the body as the schema says. */
const provider: SmallHandler = (request, answer) => {
  const correlator = request.headers['x-correlator'];
  const body = request.json() as { qosProfile?: unknown } | undefined;
  const valid =
    (correlator === undefined || (typeof correlator === 'string' && correlator.length <= 256 && new RegExp(PATTERN, 'u').test(correlator))) &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    typeof body.qosProfile === 'string' &&
    [...body.qosProfile].length <= 20 &&
    /^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '');
  if (valid) answer(201, { qosProfile: (body as { qosProfile: string }).qosProfile });
  else answer(400, { message: 'invalid' });
};

describe('a header parameter judged as it arrives', () => {
  it('passes a provider that reads the header as HTTP delivers it (whitespace around a value is not part of it)', async () => {
    const contract = compileSuiteSpec(SPEC, 'qod.json');
    const report = await runSuiteAgainst(provider, { token: '', contract, seed: 3, generated: { positive: 2, negative: 2 } });
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    // The header's other invalid values are still sent, and refused.
    expect(report.exchanges.some((x) => x.case.id.includes('parameter-header-x-correlator') && x.case.expect === 'rejected-body' && x.outcome === 'response')).toBe(true);
  });
});
