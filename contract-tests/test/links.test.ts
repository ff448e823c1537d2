/**
 * Stateful sequences follow the spec's OpenAPI `links` (contract-tests/sequences.ts): the create
 * answer's links choose the read, update and delete operations (by operationId, operationRef or a
 * `$ref` to components/links) and their parameters (runtime expressions on the create exchange).
 * Against the mock on fixtures/specs/links-3.1 the linked sequence passes; a provider broken on a
 * linked step fails the check named for it; one that differs legally passes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileContract } from '../../openapi/operations/compile.js';
import { planSequences } from '../sequences.js';
import { suiteContractOf } from '../spec-contract.js';
import { editJson, mockBehindProxies, type Tamper } from './providers/mock-proxy.js';

const SPEC = fileURLToPath(new URL('../../fixtures/specs/links-3.1/openapi.yaml', import.meta.url));
const TOKEN = 'links-token';
const document = parseYaml(readFileSync(SPEC, 'utf8')) as Record<string, any>;

function plansOf(doc: unknown) {
  const compiled = compileContract(doc, 'links.yaml');
  return planSequences(
    compiled,
    [...compiled.operations.keys()].map((id) => suiteContractOf(compiled, id)),
  );
}

describe('sequences planned from OpenAPI links', () => {
  it('take the read, update and delete the create answer links to, by operationId, operationRef and $ref, with their parameters', () => {
    const [plan] = plansOf(document);
    expect(plan?.read?.operationId).toBe('getWidget');
    expect(plan?.update?.operationId).toBe('replaceWidget');
    expect(plan?.remove?.operationId).toBe('scrapWidget');
    expect(plan?.links?.read).toEqual({ name: 'GetWidgetById', parameters: new Map([['widgetId', '$response.body#/id']]) });
    expect(plan?.links?.update).toEqual({ name: 'ReplaceWidget', parameters: new Map([['widgetId', '$response.body#/id']]) });
    expect(plan?.links?.remove?.name).toBe('ScrapWidget');
  });

  it('follow a link to an operation the CRUD rule would not have chosen', () => {
    const changed = structuredClone(document);
    changed.paths['/widget-lookup/{key}'] = {
      get: {
        operationId: 'lookupWidget',
        parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'The widget', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } },
      },
    };
    changed.paths['/widgets'].post.responses['201'].links.GetWidgetById = { operationId: 'lookupWidget', parameters: { key: '$response.body#/id' } };
    const [plan] = plansOf(changed);
    expect(plan?.read?.operationId).toBe('lookupWidget');
    expect(plan?.links?.read?.parameters).toEqual(new Map([['key', '$response.body#/id']]));
    // Without links, the CRUD rule's read.
    delete changed.paths['/widgets'].post.responses['201'].links;
    const [crud] = plansOf(changed);
    expect(crud?.read?.operationId).toBe('getWidget');
    expect(crud?.links).toBeUndefined();
  });
});

describe('a sequence built from links, against providers', () => {
  const { url, run, failed, through } = mockBehindProxies({ spec: SPEC, token: TOKEN, seed: 5, generated: { positive: 2, negative: 2 } });
  /** An item path of the widgets collection (`/widgets/12`), else undefined. */
  const item = (url: string): string | undefined => /^\/widgets\/([^/?]+)/.exec(url)?.[1];

  it('runs against the mock: each linked step sent, named by its link, and passes', async () => {
    const report = await run(url());
    expect(failed(report)).toEqual([]);
    const descriptions = report.exchanges.map((e) => e.case.description);
    for (const link of ['GetWidgetById', 'ReplaceWidget', 'ScrapWidget'])
      expect(
        descriptions.some((d) => d.includes(`(link ${link})`)),
        link,
      ).toBe(true);
  });

  it('fails ensure_resource_availability when the linked read answers 404 for a widget just made', async () => {
    const made = new Set<string>();
    const report = await through(async (request, forward) => {
      const answer = await forward();
      if (request.method === 'POST' && request.url === '/widgets' && answer.status === 201) editJson(answer, (v) => made.add(String((v as { id: unknown }).id)));
      const id = item(request.url);
      if (request.method === 'GET' && id !== undefined && made.has(id))
        return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"code":404,"message":"no such widget"}') };
      return answer;
    });
    // resource_consistency had no record read back to judge: not judged (a sequence was run and no answer showed it one).
    expect(failed(report)).toEqual(['ensure_resource_availability', 'resource_consistency']);
    expect(report.checks.find((check) => check.name === 'resource_consistency')?.status).toBe('not-judged');
  });

  it('fails use_after_free when the linked delete answers 204 and keeps the widget', async () => {
    const report = await through(async (request, forward) => (request.method === 'DELETE' && item(request.url) !== undefined ? { status: 204, headers: {}, body: Buffer.alloc(0) } : forward()));
    expect(failed(report)).toContain('use_after_free');
  });

  it('follows the list past its first page by offset (more widgets than a page holds), and fails ensure_resource_availability when offset is ignored', async () => {
    for (let i = 0; i < 45; i++) {
      const made = await fetch(`${url()}/widgets`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{"name":"filler"}' });
      expect(made.status).toBe(201);
    }
    const report = await run(url());
    expect(failed(report)).toEqual([]);
    expect(report.exchanges.some((e) => /the page at offset=\d+/.test(e.case.description))).toBe(true);
    const ignoring = await through(async (request, forward) => forward({ url: request.url.replace(/([?&])offset=\d+/, '$1offset=0') }));
    // Ignoring offset also answers the page past the end with records again: list_pages_advance says so too.
    expect(failed(ignoring)).toEqual(['ensure_resource_availability', 'list_pages_advance']);
  });

  it('passes a provider that answers each widget with a field the spec does not name (legal), twice', async () => {
    const tamper: Tamper = async (_request, forward) =>
      editJson(await forward(), (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && 'name' in v ? { ...v, madeBy: 'workshop 3' } : v));
    expect(failed(await through(tamper))).toEqual([]);
    expect(failed(await through(tamper))).toEqual([]);
  });
});
