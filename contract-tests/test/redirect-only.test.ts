/**
 * An operation that declares only a redirect (an OAuth authorize endpoint answering 302 to the
 * client's redirect_uri) succeeds by it: before, the suite left it out ("declares no 2xx response, so
 * the suite cannot tell success"), so nothing of it was judged. A correct provider passes; one that
 * refuses a valid request fails positive_data_acceptance. A `default` error response beside the redirect
 * (gotify's OIDC login: 302 and `default: Error`) leaves it an operation whose success is the redirect:
 * before, the suite expected a 2xx there and failed a provider answering the declared 302.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Sign-in', version: '1' },
  paths: {
    '/oauth/authorize': {
      get: {
        operationId: 'authorize',
        parameters: [
          { name: 'response_type', in: 'query', required: true, schema: { type: 'string', enum: ['code'] } },
          { name: 'client_id', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 40 } },
        ],
        responses: {
          '302': { description: 'to the sign-in page', headers: { Location: { required: true, schema: { type: 'string' } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
};

const authorize =
  (refuseValid: boolean): SmallHandler =>
  (request, answer) => {
    const type = request.url.searchParams.getAll('response_type');
    const client = request.url.searchParams.getAll('client_id');
    const valid =
      request.url.pathname === '/oauth/authorize' &&
      type.length === 1 &&
      type[0] === 'code' &&
      client.length === 1 &&
      [...(client[0] as string)].length >= 1 &&
      [...(client[0] as string)].length <= 40;
    if (valid && !refuseValid) answer(302, undefined, { location: '/sign-in' });
    else answer(400, { message: 'invalid authorization request' });
  };

describe('an operation declaring only 3xx', () => {
  const contract = compileSuiteSpec(SPEC, 'sign-in.json');
  it('is tested, and a provider answering its 302 passes', async () => {
    const report = await runSuiteAgainst(authorize(false), { token: '', contract, seed: 5, generated: { positive: 3, negative: 3 } });
    expect(report.operations.map((o) => o.operationId)).toEqual(['authorize']);
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    expect(report.checks.find((c) => c.name === 'positive_data_acceptance')?.judged).toBeGreaterThan(0);
  });

  it('fails a provider that refuses a valid request', async () => {
    const report = await runSuiteAgainst(authorize(true), { token: '', contract, seed: 5, generated: { positive: 3, negative: 3 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => f.check)).toContain('positive_data_acceptance');
  });
});

describe('an operation declaring a 3xx and a default error', () => {
  const spec = structuredClone(SPEC) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
  const responses = (spec.paths['/oauth/authorize'] as { get: { responses: Record<string, unknown> } }).get.responses;
  responses.default = responses['400'];
  delete responses['400'];
  const contract = compileSuiteSpec(spec, 'sign-in-default.json');

  it('is passed by a provider answering its 302', async () => {
    const report = await runSuiteAgainst(authorize(false), { token: '', contract, seed: 5, generated: { positive: 3, negative: 3 } });
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    expect(report.checks.find((c) => c.name === 'positive_data_acceptance')?.judged).toBeGreaterThan(0);
  });

  it('fails a provider that refuses a valid request', async () => {
    const report = await runSuiteAgainst(authorize(true), { token: '', contract, seed: 5, generated: { positive: 3, negative: 3 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => f.check)).toContain('positive_data_acceptance');
  });
});
