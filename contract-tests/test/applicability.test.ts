/**
 * A check the spec gives nothing to judge is not applicable, never "not judged": a spec whose
 * responses carry examples only (no schema) and declare no header used to fail every correct provider
 * with "response_schema_conformance not judged". A check the spec does give something, which no answer
 * reached, still fails the run, and the report names the answers that would have given it something.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { formatReport, runContractSuite } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const examplesOnly = (schema?: object) => ({
  openapi: '3.1.0',
  info: { title: 'Quotes', version: '1' },
  paths: {
    '/quote': {
      get: {
        operationId: 'getQuote',
        responses: {
          '200': { description: 'a quote', content: { 'application/json': { ...(schema ? { schema } : {}), example: { text: 'Be kind.' } } } },
          '404': { description: 'none today', content: { 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
});

describe('checks the spec gives nothing to judge', () => {
  it('are not applicable: a correct provider of a spec with examples only and no headers passes', async () => {
    const contract = compileSuiteSpec(
      { ...examplesOnly(), paths: { '/quote': { get: { ...examplesOnly().paths['/quote'].get, responses: { '200': examplesOnly().paths['/quote'].get.responses['200'] } } } } },
      'quotes.json',
    );
    const report = await runSuiteAgainst((_request, answer) => answer(200, { text: 'Be kind.' }), { token: '', contract, seed: 1, generated: { positive: 2, negative: 2 } });
    expect(
      report.checks.filter((c) => c.status === 'not-judged' || c.status === 'failed').map((c) => c.name),
      formatReport(report),
    ).toEqual([]);
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    for (const name of ['response_schema_conformance', 'response_headers_conformance'] as const) expect(byName.get(name)?.notApplicable).toBe(true);
    expect(report.ok).toBe(true);
  });

  it('when the spec gives something and no answer reached it: not judged, the run fails, and the report names the answers that would have', async () => {
    // The only schema is on the 404, and this provider always answers 200: nothing could be judged against a schema.
    const contract = compileSuiteSpec(examplesOnly(), 'quotes.json');
    const report = await runSuiteAgainst((_request, answer) => answer(200, { text: 'Be kind.' }), { token: '', contract, seed: 1, generated: { positive: 2, negative: 2 } });
    const schema = report.checks.find((c) => c.name === 'response_schema_conformance');
    expect(schema?.status).toBe('not-judged');
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toContain(
      '? response_schema_conformance: any of these answers would have given it something:\n      a 404 answer of getQuote (GET /quote) in a JSON type, judged against its schema',
    );
  });
});

/** Alertmanager's create, answering `silenceID`, beside a list whose records show no identity (a list of summaries), and whose only query parameter filters by state, no record property. */
const silences = {
  openapi: '3.1.0',
  info: { title: 'Silences', version: '1' },
  paths: {
    '/silences': {
      get: {
        operationId: 'getSilences',
        parameters: [{ name: 'active', in: 'query', schema: { type: 'boolean', default: true } }],
        responses: {
          '200': {
            description: 'the silences',
            content: {
              'application/json': {
                schema: { type: 'array', items: { type: 'object', required: ['comment'], properties: { comment: { type: 'string' } } } },
              },
            },
          },
        },
      },
      post: {
        operationId: 'postSilences',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['comment'], properties: { id: { type: 'string' }, comment: { type: 'string' } } } } },
        },
        responses: { '200': { description: 'created', content: { 'application/json': { schema: { type: 'object', properties: { silenceID: { type: 'string' } } } } } } },
      },
    },
  },
};

describe('a list whose records do not show the identity the create answers', () => {
  it('is not judged for the records it holds: a correct provider fails no sequence check', async () => {
    const contract = compileSuiteSpec(silences, 'silences.json');
    const stored: Array<{ id: string; comment: string }> = [];
    const report = await runSuiteAgainst(
      (request, answer) => {
        if (request.method === 'GET')
          return answer(
            200,
            stored.map(({ comment }) => ({ comment })),
          );
        const body = request.json() as { comment?: unknown } | undefined;
        if (typeof body?.comment !== 'string') return answer(400);
        const id = `s${stored.length + 1}`;
        stored.push({ id, comment: body.comment });
        answer(200, { silenceID: id });
      },
      { token: '', contract, seed: 1, generated: { positive: 2, negative: 2 } },
    );
    const sequenceChecks = ['ensure_resource_availability', 'list_honours_parameters', 'use_after_free', 'list_pages_advance'];
    expect(
      report.checks.filter((c) => sequenceChecks.includes(c.name) && (c.status === 'not-judged' || c.status === 'failed')).map((c) => c.name),
      formatReport(report),
    ).toEqual([]);
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    for (const name of ['ensure_resource_availability', 'list_honours_parameters'] as const) expect(byName.get(name)?.notApplicable).toBe(true);
  });
});

/**
 * A list filter the sequence cannot judge, against our own mock: Overseerr's `requestedBy` names a
 * property the server sets (the create sends none), Lago's `external_customer_id` one the create sends
 * but the list's items do not declare (a correct provider leaves it out of the answer). Neither is
 * promised to list_honours_parameters, and neither is judged.
 */
function requestsSpec(filter: 'set-by-server' | 'not-shown'): string {
  const sent = filter === 'not-shown' ? { customer: { type: 'string' } } : {};
  const shown = filter === 'set-by-server' ? { requestedBy: { type: 'object', readOnly: true, properties: { id: { type: 'integer' } } } } : {};
  const request = { type: 'object', required: ['id', 'status'], properties: { id: { type: 'integer', readOnly: true }, status: { type: 'integer', readOnly: true }, ...shown } };
  const parameter = filter === 'not-shown' ? { name: 'customer', in: 'query', schema: { type: 'string' } } : { name: 'requestedBy', in: 'query', schema: { type: 'number' } };
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Requests', version: '1' },
    paths: {
      '/requests': {
        get: {
          operationId: 'listRequests',
          parameters: [parameter],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { results: { type: 'array', items: request } } } } } } },
        },
        post: {
          operationId: 'createRequest',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', required: ['mediaType', ...Object.keys(sent)], properties: { mediaType: { type: 'string', enum: ['movie', 'tv'] }, ...sent } } },
            },
          },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: request } } } },
        },
      },
      '/requests/{requestId}': {
        get: {
          operationId: 'getRequest',
          parameters: [{ name: 'requestId', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: request } } }, '404': { description: 'missing' } },
        },
      },
    },
  });
}

describe('a list filter the sequence cannot judge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'unjudged-filters-'));
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it.each(['set-by-server', 'not-shown'] as const)('(a property %s) is not promised to list_honours_parameters: the suite against our mock passes', async (filter) => {
    const spec = join(dir, `${filter}.json`);
    writeFileSync(spec, requestsSpec(filter));
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 3, generated: { positive: 1, negative: 1 } });
    expect(
      report.checks.filter((c) => c.status === 'not-judged' || c.status === 'failed').map((c) => c.name),
      formatReport(report),
    ).toEqual([]);
    expect(report.checks.find((c) => c.name === 'list_honours_parameters')?.notApplicable).toBe(true);
  });
});

/**
 * An operation no request can be invalid for: Netlify's `POST /sites/{site_id}/traffic_splits/{split_test_id}/publish`
 * takes two unconstrained string path values and no body. negative_data_rejection has nothing to judge
 * there (not applicable, the run passes); an integer path value can be sent as a word, so it applies.
 */
const publish = (pathSchema: object) => ({
  openapi: '3.1.0',
  info: { title: 'Splits', version: '1' },
  paths: {
    '/sites/{site_id}/publish': {
      post: {
        operationId: 'publishSite',
        parameters: [{ name: 'site_id', in: 'path', required: true, schema: pathSchema }],
        responses: { '204': { description: 'published' }, '404': { description: 'no such site' } },
      },
    },
  },
});

describe('negative_data_rejection on an operation that takes any request the route matches', () => {
  it('is not applicable for unconstrained string path values and no body: a correct provider passes', async () => {
    const report = await runSuiteAgainst((_request, answer) => answer(204), {
      token: '',
      contract: compileSuiteSpec(publish({ type: 'string' }), 'splits.json'),
      seed: 1,
      generated: { positive: 2, negative: 2 },
    });
    const check = report.checks.find((c) => c.name === 'negative_data_rejection');
    expect(check?.notApplicable, formatReport(report)).toBe(true);
    expect(check?.skipped.map((s) => s.reason).join('; ')).toMatch(/no request can be invalid/);
    expect(report.ok, formatReport(report)).toBe(true);
  });

  it('applies to an integer path value: a provider accepting a word there fails it', async () => {
    const report = await runSuiteAgainst((_request, answer) => answer(204), {
      token: '',
      contract: compileSuiteSpec(publish({ type: 'integer' }), 'splits.json'),
      seed: 1,
      generated: { positive: 2, negative: 2 },
    });
    const check = report.checks.find((c) => c.name === 'negative_data_rejection');
    expect(check?.notApplicable).not.toBe(true);
    expect(check?.status, formatReport(report)).toBe('failed');
  });
});

describe('a check of state that judged nothing, beside a case left out', () => {
  it('is not judged, not skipped: the case not sent was never one of its steps', async () => {
    // No property required: the empty object of the body shapes is valid, so that case is left out (not sent).
    // The provider answers every create without the identity, so no sequence gets past its create.
    const contract = compileSuiteSpec(
      {
        openapi: '3.1.0',
        info: { title: 'Notes', version: '1' },
        paths: {
          '/notes': {
            post: {
              operationId: 'createNote',
              requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } } } } } },
              responses: { '201': { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, text: { type: 'string' } } } } } } },
            },
          },
          '/notes/{id}': {
            get: {
              operationId: 'getNote',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': { description: 'a note', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, text: { type: 'string' } } } } } } },
            },
          },
        },
      },
      'notes.json',
    );
    const report = await runSuiteAgainst((request, answer) => (request.method === 'POST' ? answer(201, {}) : answer(200, { id: 'n1', text: 'x' })), { token: '', contract, seed: 1 });
    expect(report.exchanges.some((e) => e.outcome === 'not-sent')).toBe(true);
    const availability = report.checks.find((c) => c.name === 'ensure_resource_availability');
    expect(availability?.skipped.length).toBeGreaterThan(0); // the case left out is listed under it, as under every check
    expect(availability?.status).toBe('not-judged');
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toContain('? ensure_resource_availability: any of these answers would have given it something:\n      getNote after createNote created a note (a 2xx create first)');
  });
});
