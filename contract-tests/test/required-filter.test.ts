/**
 * A list that requires a filter on a record property (Netlify's GET /hooks?site_id=…, required, and its
 * create POST /hooks?site_id=… taking the site in the query as well as declaring site_id in the hook):
 * the sequence's records all hold one site_id, sent in the body and in the create's query, and every list
 * sends it. Before, each record drew its own site_id and the list a random one, so a correct provider
 * listed none of them and failed ensure_resource_availability — whether it reads the site from the
 * query (Netlify) or from the body (our mock). A provider whose list leaves out a record still fails.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const HOOK = { content: { 'application/json': { schema: { $ref: '#/components/schemas/hook' } } } };
const SITE = { name: 'site_id', in: 'query', required: true, schema: { type: 'string' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Hooks', version: '1' },
  paths: {
    '/hooks': {
      get: {
        operationId: 'listHooksBySiteId',
        parameters: [SITE],
        responses: { '200': { description: 'the hooks', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/hook' } } } } } },
      },
      post: {
        operationId: 'createHookBySiteId',
        parameters: [SITE],
        requestBody: { required: true, ...HOOK },
        responses: { '201': { description: 'created', ...HOOK }, '400': { description: 'refused' } },
      },
    },
    '/hooks/{hook_id}': {
      parameters: [{ name: 'hook_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getHook', responses: { '200': { description: 'the hook', ...HOOK }, '404': { description: 'none' } } },
      delete: { operationId: 'deleteHook', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
  components: {
    schemas: {
      hook: { type: 'object', properties: { id: { type: 'string', readOnly: true }, site_id: { type: 'string' }, type: { type: 'string' }, event: { type: 'string' } } },
    },
  },
};

type Hook = Record<string, unknown>;

/** The site a hook belongs to: the query's (as Netlify reads it) or the body's; `dropOne` lists all but the last hook of a site. */
function hookProvider(site: 'query' | 'body', dropOne = false): SmallHandler {
  const hooks = new Map<string, Hook>();
  let next = 1;
  return (request, answer) => {
    const path = request.url.pathname;
    const query = request.url.searchParams.get('site_id');
    if (path === '/hooks') {
      if (query === null || query === '') return answer(400);
      if (request.method === 'GET') {
        const listed = [...hooks.values()].filter((hook) => hook.site_id === query);
        return answer(200, dropOne ? listed.slice(0, -1) : listed);
      }
      const body = request.json();
      if (request.method !== 'POST' || body === null || typeof body !== 'object' || Array.isArray(body)) return answer(400);
      const fields = body as Hook;
      if (['site_id', 'type', 'event'].some((name) => fields[name] !== undefined && typeof fields[name] !== 'string')) return answer(400);
      // The declared members only: the suite also sends deep undeclared ones (the schema is open), which a provider may drop.
      const hook = { id: `h${next++}`, type: fields.type, event: fields.event, site_id: site === 'query' ? query : (fields.site_id ?? query) };
      hooks.set(hook.id, hook);
      return answer(201, hook);
    }
    const match = /^\/hooks\/([^/]+)$/.exec(path);
    const id = match ? decodeURIComponent(match[1] as string) : '';
    const hook = hooks.get(id);
    if (!hook) return answer(404);
    if (request.method === 'GET') return answer(200, hook);
    if (request.method === 'DELETE') {
      hooks.delete(id);
      return answer(204);
    }
    answer(404);
  };
}

const contract = compileSuiteSpec(SPEC, 'hooks.json');
const run = (handler: SmallHandler) =>
  runSuiteAgainst(handler, { token: '', contract, seed: 3, generated: { positive: 1, negative: 0 }, checks: ['ensure_resource_availability', 'list_honours_parameters', 'use_after_free'] });

describe('a list that requires a filter on a record property', () => {
  it.each(['query', 'body'] as const)('passes a provider that takes the site from the %s', async (site) => {
    const report = await run(hookProvider(site));
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    expect(report.checks.find((c) => c.name === 'ensure_resource_availability')?.judged).toBeGreaterThan(0);
  });

  it('fails a provider whose list leaves a hook out', async () => {
    const report = await run(hookProvider('query', true));
    expect(
      report.findings.some((f) => f.severity === 'failure' && f.check === 'ensure_resource_availability'),
      formatReport(report),
    ).toBe(true);
  });
});
