/**
 * The bundled Plant Store fixtures on another spec: offered only to an operation whose schema
 * declares every member they send. A to-do API whose create takes any object (no required member,
 * open to others) used to be sent `fixture:tagged-plant` while the report's header said the
 * fixtures were "not offered"; now no Plant meant as valid is sent there (bodies the spec itself refuses
 * still are) and the header counts what was and was not offered, and where a schema does
 * declare `name` and `tag` the header counts those offered as well as those not. Nor are they offered to
 * an operation whose required parameters they do not send (Azure DevOps' `POST /{organization}/_apis/projects?api-version=`:
 * a Plant body sent to the path template with no api-version is not a valid request, and a correct provider refused it).
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const spec = (properties: Record<string, object>) => ({
  openapi: '3.1.0',
  info: { title: 'To-do', version: '1' },
  paths: {
    '/todos': {
      post: {
        operationId: 'createTodo',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties } } } },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: { type: 'object', properties: { done: { type: 'boolean' } } } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
});

const accepting: SmallHandler = (request, answer) => {
  const body = request.json();
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) answer(201, { done: false });
  else answer(400, { message: 'not an object' });
};

describe('the bundled fixtures on another spec', () => {
  it('are not offered to an operation whose schema does not declare what they send, and the header says so', async () => {
    const contract = compileSuiteSpec(spec({ title: { type: 'string' }, done: { type: 'boolean' } }), 'todos.json');
    const report = await runSuiteAgainst(accepting, { token: '', contract, seed: 1, generated: { positive: 1, negative: 1 } });
    const fixtures = report.exchanges.filter((x) => x.case.id.startsWith('fixture:'));
    // Bodies the spec itself refuses (null, an array, malformed JSON) are still refused bodies there; a Plant meant as valid is not a to-do.
    expect(fixtures.filter((x) => x.case.expect === 'accepted').map((x) => x.case.id)).toEqual([]);
    expect(report.fixturesOffered ?? 0).toBe(fixtures.length);
    expect(formatReport(report)).toContain(`(${fixtures.length} bundled Plant Store fixture case(s) offered where their bodies fit the operation's schema; ${report.fixturesNotOffered} not offered`);
  });

  it('are offered where the schema declares their members, and the header counts both', async () => {
    const contract = compileSuiteSpec(spec({ name: { type: 'string' }, tag: { type: 'string' } }), 'todos.json');
    const report = await runSuiteAgainst(accepting, { token: '', contract, seed: 1, generated: { positive: 1, negative: 1 } });
    const sent = report.exchanges.filter((x) => x.case.id.startsWith('fixture:')).length;
    expect(sent).toBeGreaterThan(0);
    expect(report.fixturesOffered).toBe(sent);
    expect(formatReport(report)).toContain(`(${sent} bundled Plant Store fixture case(s) offered where their bodies fit the operation's schema; ${report.fixturesNotOffered} not offered`);
  });

  it('are not offered to an operation whose required path and query parameters they do not send', async () => {
    const contract = compileSuiteSpec(
      {
        openapi: '3.1.0',
        info: { title: 'Projects', version: '1' },
        paths: {
          '/{organization}/_apis/projects': {
            post: {
              operationId: 'createProject',
              parameters: [
                { name: 'organization', in: 'path', required: true, schema: { type: 'string' } },
                { name: 'api-version', in: 'query', required: true, schema: { type: 'string' } },
              ],
              requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } } } } } },
              responses: {
                '202': { description: 'queued', content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } } },
                '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
              },
            },
          },
        },
      },
      'projects.json',
    );
    // A correct provider: the organization is a real path segment, the api-version a required query parameter.
    const provider: SmallHandler = (request, answer) => {
      const body = request.json();
      if (request.url.pathname.includes('{') || !request.url.searchParams.has('api-version')) answer(400, { message: 'api-version is required' });
      else if (body !== null && typeof body === 'object' && !Array.isArray(body) && ['name', 'tag'].every((key) => !(key in body) || typeof (body as Record<string, unknown>)[key] === 'string'))
        answer(202, { status: 'queued' });
      else answer(400, { message: 'not a project' });
    };
    const report = await runSuiteAgainst(provider, { token: '', contract, seed: 1, generated: { positive: 1, negative: 1 } });
    expect(report.exchanges.filter((x) => x.case.id.startsWith('fixture:') && x.outcome !== 'not-sent').map((x) => x.case.id)).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
