/**
 * A collection keyed by a string the client sends, under a pattern (`/articles/{slug}`, QA item
 * 13): every valid create gets a slug of its own that fits the pattern, so a provider that
 * refuses repeats (409) accepts them all, and one that answers 409 to everything fails
 * positive_data_acceptance instead of being read as "already stored".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { generateCases } from '../generated.js';
import { freshKeyMaker } from '../generators/identity.js';
import { compileSuiteContract, formatReport, runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const SEED = 1_313;
const SLUG = { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 40 };
const ARTICLE = { type: 'object', required: ['slug', 'title'], additionalProperties: false, properties: { slug: SLUG, title: { type: 'string' }, views: { type: 'integer', minimum: 0 } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Articles', version: '1' },
  paths: {
    '/articles': {
      post: {
        operationId: 'createArticle',
        requestBody: { required: true, content: { 'application/json': { schema: ARTICLE } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: ARTICLE } } }, '409': { description: 'taken' } },
      },
    },
    '/articles/{slug}': {
      parameters: [{ name: 'slug', in: 'path', required: true, schema: SLUG }],
      get: { operationId: 'getArticle', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ARTICLE } } }, '404': { description: 'missing' } } },
    },
  },
};

describe('fresh string keys', () => {
  it('take the shape a schema allows, never the same twice', () => {
    const ids = createIdSource();
    const shapes: Array<[Record<string, unknown>, RegExp]> = [
      [SLUG, /^"k[0-9a-z]{8}"$/],
      [{ type: 'string', pattern: '^[0-9]+$' }, /^"\d+"$/],
      [{ type: 'string', pattern: '^[A-Z]+$', minLength: 12 }, /^"[A-Z]{12,}"$/],
      [{ type: 'string', format: 'email' }, /^"k[0-9a-z]+@example\.com"$/],
    ];
    for (const [schema, shape] of shapes) {
      const make = freshKeyMaker(schema, ids);
      const made = Array.from({ length: 50 }, () => make?.() ?? '');
      for (const key of made) expect(key, JSON.stringify(schema)).toMatch(shape);
      expect(new Set(made).size).toBe(50);
    }
    expect(freshKeyMaker({ type: 'string', enum: ['a'] }, ids)).toBeUndefined();
    expect(freshKeyMaker({ type: 'string', pattern: '^x$' }, ids)).toBeUndefined();
  });

  it('give every valid create body a slug of its own', () => {
    const contract = compileSuiteContract(SPEC, 'articles.json', 'createArticle');
    const generation = generateCases({ contract, seed: SEED, positive: 20, negative: 5, ids: createIdSource(), token: '', invalidToken: 'x' });
    const fresh = generation.cases.filter((c) => c.expect === 'accepted' && !c.fixedId && typeof c.body === 'string' && c.body.startsWith('{'));
    const slugs = fresh.map((c) => (JSON.parse(c.body as string) as { slug: string }).slug);
    expect(slugs.length).toBeGreaterThan(20);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

describe('string keys against providers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'string-keys-'));
  const spec = join(dir, 'articles.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: '', spec, seed: SEED, generated: { positive: 10, negative: 5 } });

  it('the mock, refusing repeated slugs with 409, accepts every valid create that is not fixed', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(mock);
    const report = await run(mock.url);
    const creates = report.exchanges.filter((x) => x.case.operationId === 'createArticle' && x.case.expect === 'accepted' && !x.case.sequence);
    const repeats = creates.filter((x) => x.outcome === 'response' && x.response.status === 409 && !x.case.fixedId).map((x) => x.case.id);
    expect(creates.length).toBeGreaterThan(20);
    expect(repeats).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    // The Plant Store's bundled fixtures fit no operation here: one line says so, not a skip per case.
    expect(report.exchanges.filter((x) => x.case.source === 'fixture' && x.outcome === 'not-sent').map((x) => x.case.id)).toEqual([]);
    expect(formatReport(report)).toMatch(
      /^ {2}\(\d+ bundled Plant Store fixture case\(s\) offered where their bodies fit the operation's schema; \d+ not offered: written for POST \/plants, they fit no operation of this spec\)$/m,
    );
  });

  it('a provider that answers 409 to every create fails positive_data_acceptance', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) =>
      request.method === 'POST' ? { status: 409, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"taken"}') } : forward(),
    );
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(report.checks.find((c) => c.name === 'positive_data_acceptance')?.status).toBe('failed');
    // The generated creates themselves, not only the sequence's: each sent a slug never sent before.
    const failed = report.findings.filter((f) => f.check === 'positive_data_acceptance' && f.severity === 'failure' && !f.exchange.case.sequence);
    expect(failed.length).toBeGreaterThan(20);
  });
});

/** A key without constraints (`/users/{username}`): fast-check's random strings repeat ("" most of all), and the domain walk sends "" too. */
const USER = { type: 'object', required: ['username'], additionalProperties: false, properties: { username: { type: 'string' }, nick: { type: ['string', 'null'] } } };
const USERS = {
  openapi: '3.1.0',
  info: { title: 'Users', version: '1' },
  paths: {
    '/users': {
      post: {
        operationId: 'createUser',
        requestBody: { required: true, content: { 'application/json': { schema: USER } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: USER } } }, '409': { description: 'taken' } },
      },
    },
    '/users/{username}': {
      parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getUser', responses: { '200': { description: 'ok', content: { 'application/json': { schema: USER } } }, '404': { description: 'missing' } } },
    },
  },
};

describe('a string key without constraints', () => {
  it('every random valid body gets a username of its own, none a fixed case already sent', () => {
    const contract = compileSuiteContract(USERS, 'users.json', 'createUser');
    const generation = generateCases({ contract, seed: SEED, positive: 40, negative: 5, ids: createIdSource(), token: '', invalidToken: 'x' });
    const sent = (c: { body?: unknown }) => (JSON.parse(c.body as string) as { username: string }).username;
    const fixed = new Set(generation.cases.filter((c) => c.expect === 'accepted' && c.fixedId && typeof c.body === 'string' && c.body.startsWith('{')).map(sent));
    const randoms = generation.cases.filter((c) => c.family === 'random-valid').map(sent);
    expect(randoms.length).toBe(40);
    expect(new Set(randoms).size).toBe(randoms.length);
    expect(randoms.filter((name) => fixed.has(name))).toEqual([]);
  });

  it('the mock, refusing a repeated username with 409, passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'string-keys-users-'));
    const spec = join(dir, 'users.json');
    writeFileSync(spec, JSON.stringify(USERS));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 466_963_833, generated: { positive: 40, negative: 5 } });
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
