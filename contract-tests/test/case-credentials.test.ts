/**
 * Case files that name the security scheme their credential goes by (`auth: {scheme, value}`),
 * whatever the scheme declares: an API key in a cookie and one in the query, on a spec written
 * here. The suite sends each credential where its scheme says (the cookie, the query string), a
 * case's default credential goes where the operation's scheme says, and a case naming a scheme
 * the spec does not declare is not sent, with the reason. Run against the mock over HTTP, a
 * provider that checks the keys passes and one that ignores them fails ignored_auth on the cases.
 * The mock's export of a frontend's requests names the scheme a key went by where the operation
 * takes several, leaves a query key out of the recorded query, and replays with the keys in place.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import type { Exchange } from '../model.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const TOKEN = 'notebook-key';
const SEED = 4_211;
const NOTE = {
  type: 'object',
  required: ['text'],
  properties: { id: { type: 'integer', format: 'int64', readOnly: true }, text: { type: 'string', minLength: 1, maxLength: 40 } },
};
const create = (operationId: string, security: unknown[]) => ({
  post: {
    operationId,
    security,
    requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
    responses: { '201': { description: 'created', content: { 'application/json': { schema: NOTE } } }, '400': { description: 'refused' }, '401': { description: 'no key' } },
  },
});
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notebook', version: '1' },
  paths: {
    // The key in a cookie only.
    '/notes': create('createNote', [{ session: [] }]),
    // A bearer token or the key in the query: the suite's own cases send the bearer token (the first), a case names the query key.
    '/keyed-notes': create('createKeyedNote', [{ bearer: [] }, { queryKey: [] }]),
  },
  components: {
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: 'nb_session' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
};
const note = (text: string) => ({ id: 'safe-positive', body: { json: { text } } });
const CASES = {
  description: 'Notebook cases with their credentials in a cookie and in the query',
  cases: [
    { name: 'cookie-key', description: 'the key in its cookie', expect: 'accepted', request: { path: '/notes', auth: { scheme: 'session', value: '{{token}}' }, ...note('milk') } },
    { name: 'cookie-default', description: 'the default credential, where the scheme says', expect: 'accepted', request: { path: '/notes', ...note('eggs') } },
    {
      name: 'cookie-key-never-issued',
      description: 'a key the provider never issued, in the cookie',
      expect: 'unauthenticated',
      request: { path: '/notes', auth: { scheme: 'session', value: '{{invalid-token}}' }, ...note('tea') },
    },
    {
      name: 'cookie-key-in-the-query',
      description: 'the right key in the wrong place: the query, where /notes takes none',
      expect: 'unauthenticated',
      request: { path: '/notes', auth: { scheme: 'queryKey', value: '{{token}}' }, ...note('jam') },
    },
    { name: 'query-key', description: 'the key in its query parameter', expect: 'accepted', request: { path: '/keyed-notes', auth: { scheme: 'queryKey', value: '{{token}}' }, ...note('rice') } },
    {
      name: 'query-key-wrong',
      description: 'a wrong key in the query parameter',
      expect: 'unauthenticated',
      request: { path: '/keyed-notes', auth: { scheme: 'queryKey', value: 'not-the-key' }, ...note('salt') },
    },
    {
      name: 'undeclared-scheme',
      description: 'a scheme this spec does not declare',
      expect: 'accepted',
      request: { path: '/notes', auth: { scheme: 'headerKey', value: '{{token}}' }, ...note('oats') },
    },
  ],
};

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** A notebook that checks the body and, when `checksKeys`, the credential each path's scheme asks for. */
function notebook(checksKeys: boolean): SmallHandler {
  let next = 1;
  return (request, answer) => {
    const { pathname, searchParams } = request.url;
    if (request.method !== 'POST' || (pathname !== '/notes' && pathname !== '/keyed-notes')) return answer(404, { message: 'no such route' });
    const authorization = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const keyed = pathname === '/notes' ? cookieOf(request.headers.cookie, 'nb_session') === TOKEN : searchParams.getAll('api_key').join() === TOKEN || authorization === TOKEN;
    if (checksKeys && !keyed) return answer(401, { message: 'no valid key' });
    const body = request.json();
    const text = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).text : undefined;
    const length = typeof text === 'string' ? [...text].length : 0;
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof text !== 'string' || length < 1 || length > 40)
      return answer(400, { message: 'a text of 1 to 40 characters' });
    return answer(201, { id: next++, text });
  };
}

describe('case files that name their security scheme: an API key in a cookie and in the query', () => {
  const dir = mkdtempSync(join(tmpdir(), 'case-credentials-'));
  const spec = join(dir, 'notebook.json');
  const cases = join(dir, 'notebook.cases.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  writeFileSync(cases, JSON.stringify(CASES));
  const options = { token: TOKEN, spec, cases: [cases], seed: SEED, generated: { positive: 2, negative: 2 } };
  const fromFile = (report: ContractReport): Exchange[] => report.exchanges.filter((x) => x.case.source === 'cases');
  const closing: MockServer[] = [];
  afterAll(async () => {
    for (const server of closing) await server.close();
  });

  it('sends each credential where its scheme says, and the mock over HTTP passes every case', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(mock);
    const report = await runContractSuite({ ...options, baseUrl: mock.url });
    const byId = new Map(fromFile(report).map((x) => [x.case.id, x]));
    const sent = (id: string) => byId.get(id)?.case.request;
    expect(sent('cases:cookie-key')?.headers.cookie).toBe(`nb_session=${TOKEN}`);
    expect(sent('cases:cookie-default')?.headers.cookie).toBe(`nb_session=${TOKEN}`);
    expect(sent('cases:cookie-key-never-issued')?.headers.cookie).toMatch(/^nb_session=(?!notebook-key$)/);
    expect(sent('cases:cookie-key-in-the-query')?.path).toBe(`/notes?api_key=${TOKEN}`);
    expect(sent('cases:query-key')?.path).toBe(`/keyed-notes?api_key=${TOKEN}`);
    expect(sent('cases:query-key')?.headers).not.toHaveProperty('authorization');
    expect(sent('cases:query-key-wrong')?.path).toBe('/keyed-notes?api_key=not-the-key');
    const outcome = (x: Exchange) => `${x.case.operationId} ${x.outcome === 'response' ? x.response.status : x.outcome === 'not-sent' ? `not sent: ${x.reason}` : x.outcome}`;
    expect(Object.fromEntries([...byId].map(([id, x]) => [id, outcome(x)]))).toEqual({
      'cases:cookie-key': 'createNote 201',
      'cases:cookie-default': 'createNote 201',
      'cases:cookie-key-never-issued': 'createNote 401',
      'cases:cookie-key-in-the-query': 'createNote 401',
      'cases:query-key': 'createKeyedNote 201',
      'cases:query-key-wrong': 'createKeyedNote 401',
      'cases:undeclared-scheme': expect.stringMatching(/^createNote not sent: .*security scheme headerKey, which the spec does not declare .*\(it declares session, queryKey, bearer\)/),
    });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a provider that checks the keys where the schemes put them passes', async () => {
    const report = await runSuiteAgainst(notebook(true), options);
    expect(fromFile(report).filter((x) => x.outcome === 'response').length).toBe(6);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("the mock's export of a frontend's requests names the scheme each key went by, and the replay sends it there", async () => {
    const frontend = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(frontend);
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${frontend.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"text":"bread"}' });
    expect((await post(`/keyed-notes?api_key=${TOKEN}&draft=1`)).status).toBe(201);
    expect((await post('/notes', { cookie: `theme=dark; nb_session=${TOKEN}` })).status).toBe(201);
    expect((await post('/notes', { cookie: 'nb_session=stolen-key' })).status).toBe(401);
    expect((await post('/keyed-notes?api_key=stolen-key')).status).toBe(401);
    const text = await (await fetch(`${frontend.url}/__mock/requests?format=cases`)).text();
    expect(text).not.toContain(TOKEN);
    const exported = JSON.parse(text) as { cases: Array<{ expect: string; request: { path?: string; auth?: unknown } }> };
    // The keys the mock accepted and refused, by the scheme they went by where /keyed-notes takes two; the query key left out of the path.
    expect(exported.cases.map((c) => [c.expect, c.request.path, c.request.auth])).toEqual([
      ['accepted', '/keyed-notes?draft=1', { scheme: 'queryKey', value: '{{token}}' }],
      ['accepted', undefined, undefined],
      ['unauthenticated', undefined, 'invalid-token'],
      ['unauthenticated', '/keyed-notes', { scheme: 'queryKey', value: '{{invalid-token}}' }],
    ]);
    const file = join(dir, 'exported.cases.json');
    writeFileSync(file, text);
    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(provider);
    const report = await runContractSuite({ ...options, cases: [file], baseUrl: provider.url });
    const replayed = fromFile(report).map((x) => [x.case.request.path, x.case.request.headers.cookie, x.outcome === 'response' ? x.response.status : x.outcome]);
    expect(replayed).toEqual([
      [`/keyed-notes?draft=1&api_key=${TOKEN}`, undefined, 201],
      ['/notes', `nb_session=${TOKEN}`, 201],
      ['/notes', expect.stringMatching(/^nb_session=contract-suite-invalid-/), 401],
      [expect.stringMatching(/^\/keyed-notes\?api_key=contract-suite-invalid-/), undefined, 401],
    ]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a provider that ignores the keys fails ignored_auth on the cases with a wrong or misplaced key', async () => {
    const report = await runSuiteAgainst(notebook(false), options);
    expect(report.ok).toBe(false);
    const failed = report.findings.filter((f) => f.check === 'ignored_auth' && f.severity === 'failure').map((f) => f.exchange.case.id);
    expect(failed).toEqual(expect.arrayContaining(['cases:cookie-key-never-issued', 'cases:cookie-key-in-the-query', 'cases:query-key-wrong']));
  });
});
