/**
 * A list whose items show less than a record can hold (netlify's sites: the create takes `repo`, a
 * listed site declares none): a record holding none of the unshown properties goes out as stored, one
 * holding one is projected, and no listed item ever shows it — whether its text names the property
 * as a key, as a value, or spelled with an escape; in the plain array and in a filtered, paged page.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const site = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, state: { type: 'string', enum: ['new', 'ready'] } } };
const SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Sites', version: '1' },
  paths: {
    '/sites': {
      get: {
        operationId: 'listSites',
        parameters: [
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['new', 'ready'] } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1 } },
        ],
        responses: { '200': { description: 'ok', content: json({ type: 'array', items: site }) } },
      },
      post: {
        operationId: 'createSite',
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['id', 'name'], properties: { ...site.properties, repo: { type: 'string' }, secret: { type: 'string', writeOnly: true } } }),
        },
        responses: { '201': { description: 'created', content: json(site) } },
      },
    },
    '/sites/{id}': {
      get: { operationId: 'getSite', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: json(site) } } },
    },
  },
});

describe('a list whose items show less than a record holds', () => {
  let mock: MockServer;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'items-cut-')), 'sites.json');
    writeFileSync(file, SPEC);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: file });
    const bodies = [
      '{"id":"plain","name":"a","state":"new"}',
      '{"id":"with-repo","name":"b","state":"new","repo":"https://git.example/b"}',
      '{"id":"named-repo","name":"repo","state":"ready"}',
      '{"id":"escaped","name":"c","state":"new","\\u0072epo":"spelled","secret":"s3"}',
      '{"id":"secret","name":"d","state":"ready","secret":"hunter2"}',
    ];
    for (const body of bodies) {
      const answer = await fetch(`${mock.url}/sites`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(answer.status, body).toBe(201);
    }
  });
  afterAll(() => mock?.close());

  const listed = async (query: string): Promise<Array<Record<string, unknown>>> => {
    const answer = await fetch(`${mock.url}/sites${query}`);
    expect(answer.status).toBe(200);
    return (await answer.json()) as Array<Record<string, unknown>>;
  };

  it('shows each site with only what a listed site declares, the plain list and a filtered page alike', async () => {
    const all = await listed('');
    expect(all).toEqual([
      { id: 'plain', name: 'a', state: 'new' },
      { id: 'with-repo', name: 'b', state: 'new' },
      { id: 'named-repo', name: 'repo', state: 'ready' },
      { id: 'escaped', name: 'c', state: 'new' },
      { id: 'secret', name: 'd', state: 'ready' },
    ]);
    expect(await listed('?state=new&per_page=2')).toEqual([
      { id: 'plain', name: 'a', state: 'new' },
      { id: 'with-repo', name: 'b', state: 'new' },
    ]);
    expect(await listed('?per_page=10')).toEqual(all);
    // The stored record keeps what the create declared; only the answers leave it out.
    const stored = (await (await fetch(`${mock.url}/__mock/sites`)).json()) as { records?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
    const records = Array.isArray(stored) ? stored : (stored.records ?? []);
    expect(records.find((r) => r.id === 'with-repo')).toMatchObject({ repo: 'https://git.example/b' });
  });
});
