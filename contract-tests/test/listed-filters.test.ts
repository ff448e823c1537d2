/**
 * Filters of a list no client fills (contract-tests/listed-filters.ts; the rule:
 * openapi/operations/list-filters.ts): a jobs list, only listed, with a `state` enum filter and a
 * `paused` boolean one. The suite lists it without the filters, then with a value one job holds and
 * another does not. A provider of the test's own (node:http) that filters passes, one that ignores
 * either filter fails list_honours_parameters, and one whose list is a 404 has the filtered lists
 * not sent, saying why (skipped, not a silent "not judged"). The mock started on the same spec keeps
 * its example's jobs to the ones a filter asks for, over real HTTP, and the suite passes it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { readContract } from '../../openapi/operations/compile.js';
import { exactFilters } from '../../openapi/operations/list-filters.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const STATES = ['queued', 'running', 'done'];
const Job = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' }, paused: { type: 'boolean' } },
};
const JOBS = [
  { id: 'j1', name: 'nightly', state: 'queued', paused: false },
  { id: 'j2', name: 'export', state: 'running', paused: true },
  { id: 'j3', name: 'backup', state: 'done', paused: false },
];
const Problem = { description: 'A problem', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Jobs', version: '1' },
  paths: {
    '/teams/{team}/jobs': {
      get: {
        operationId: 'listJobs',
        parameters: [
          { name: 'team', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]{2,8}$' }, example: 'ops' },
          { name: 'state', in: 'query', schema: { type: 'string', enum: STATES } },
          { name: 'paused', in: 'query', schema: { type: 'boolean' } },
          // A free string: a search, perhaps; not a filter the suite may judge by equality.
          { name: 'name', in: 'query', schema: { type: 'string', maxLength: 20 } },
        ],
        responses: {
          '200': {
            description: 'Jobs',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: Job }, total: { type: 'integer' } } },
                example: { data: JOBS, total: 3 },
              },
            },
          },
          '400': Problem,
          '404': Problem,
        },
      },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'listed-filters-'));
const SPEC_FILE = join(dir, 'jobs.json');
writeFileSync(SPEC_FILE, JSON.stringify(SPEC));

type Provider = 'correct' | 'state-ignored' | 'paused-ignored' | 'list-missing' | 'summaries';

function runAgainst(provider: Provider): Promise<ContractReport> {
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      const team = /^\/teams\/([^/]+)\/jobs$/.exec(url.pathname)?.[1];
      if (request.method !== 'GET' || team === undefined) return answer(404, { message: 'no such route' });
      if (!/^[a-z]{2,8}$/.test(team)) return answer(400, { message: 'team is 2 to 8 letters' });
      if (provider === 'list-missing') return answer(404, { message: 'no such team' });
      const state = url.searchParams.get('state');
      const paused = url.searchParams.get('paused');
      const name = url.searchParams.get('name');
      if (state !== null && !STATES.includes(state)) return answer(400, { message: `state is one of ${STATES.join(', ')}` });
      if (paused !== null && paused !== 'true' && paused !== 'false') return answer(400, { message: 'paused is true or false' });
      if (name !== null && [...name].length > 20) return answer(400, { message: 'name is at most 20 characters' });
      const data = JOBS.filter(
        (job) =>
          (state === null || provider === 'state-ignored' || job.state === state) &&
          (paused === null || provider === 'paused-ignored' || String(job.paused) === paused) &&
          (name === null || job.name.includes(name)),
      );
      // A legal choice: the list shows each job's summary (its id and name; `state` and `paused` are not required there).
      return answer(200, { data: provider === 'summaries' ? data.map(({ id, name }) => ({ id, name })) : data, total: data.length });
    },
    { spec: SPEC_FILE, seed: 8, generated: { positive: 1, negative: 1 } },
  );
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);
const filtered = (report: ContractReport): string[] =>
  report.exchanges.flatMap((e) => (e.case.sequence?.filter ? [`${e.case.sequence.filter.parameter}=${String(e.case.sequence.filter.values[0])}`] : [])).sort();

describe('the exact filters of a list (the rule both tools read)', () => {
  it('are the optional query parameters taking an enum string or a boolean, named as a property the items declare with that type', async () => {
    const contract = await readContract(SPEC_FILE);
    const filters = exactFilters(contract.operations.get('listJobs')!, contract.document);
    expect(filters).toEqual([
      { parameter: 'state', property: 'state', kind: 'string', values: STATES, wrapper: 'data' },
      { parameter: 'paused', property: 'paused', kind: 'boolean', values: [true, false], wrapper: 'data' },
    ]);
  });
});

describe('a list no client fills, judged on its own records', () => {
  it('passes a provider whose filters are exact, each asked for a value one job holds and another does not', async () => {
    const report = await runAgainst('correct');
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(filtered(report)).toEqual(['paused=false', 'state=queued']);
    expect(report.checks.find((c) => c.name === 'list_honours_parameters')?.status).toBe('passed');
  });

  it.each([['state-ignored'], ['paused-ignored']] as const)('fails list_honours_parameters against a provider whose filter is %s', async (provider) => {
    const report = await runAgainst(provider);
    expect(failed(report)).toEqual(['list_honours_parameters']);
    expect(report.findings.find((f) => f.check === 'list_honours_parameters')?.message).toMatch(/the filter was ignored/);
  });

  it('judges no filter on records that do not show its property (a list of summaries), and says why', async () => {
    const report = await runAgainst('summaries');
    const check = report.checks.find((c) => c.name === 'list_honours_parameters');
    expect(check?.status).toBe('skipped');
    expect(check?.skipped.map((s) => s.reason)).toContain('not sent: the records listed without paused do not show their paused, so a filtered list could not be judged');
    expect(report.ok).toBe(true);
  });

  it('sends no filtered list where the list itself is not answered, and says why instead of failing the run unjudged', async () => {
    const report = await runAgainst('list-missing');
    const check = report.checks.find((c) => c.name === 'list_honours_parameters');
    expect(check?.status).toBe('skipped');
    expect(check?.skipped.map((s) => s.reason)).toContain('not sent: the list without state answered 404, so no record showed a value to filter by');
    expect(failed(report)).not.toContain('list_honours_parameters');
  });
});

describe('the mock on that spec', () => {
  let mock: MockServer | undefined;
  afterAll(() => mock?.close());

  it('keeps the example’s jobs to those a filter asks for, over HTTP, and the suite passes it', async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC_FILE });
    const list = async (query: string): Promise<unknown> => (await fetch(`${mock?.url}/teams/ops/jobs${query}`)).json();
    expect(await list('')).toEqual({ data: JOBS, total: 3 });
    expect(await list('?state=running')).toEqual({ data: [JOBS[1]], total: 3 });
    expect(await list('?state=done&paused=true')).toEqual({ data: [], total: 3 });
    expect(await list('?paused=false')).toEqual({ data: [JOBS[0], JOBS[2]], total: 3 });
    // A free string is no exact filter: the example as the spec gives it.
    expect(await list('?name=nightly')).toEqual({ data: JOBS, total: 3 });
    const report = await runContractSuite({ baseUrl: mock.url, spec: SPEC_FILE, seed: 8, generated: { positive: 1, negative: 1 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    expect(filtered(report)).toEqual(['paused=false', 'state=queued']);
  });
});
