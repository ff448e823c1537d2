/**
 * Credentials as the spec declares them (issue 38 §3): an API key carried in the Authorization header
 * with a scheme prefix of its own (`Authorization: Token abc`, as Django REST Framework, NetBox or
 * Ory's `oryAccessToken` take it) is passed with `--token "Token abc"` and sent as-is; and where the
 * spec offers alternatives (`[apiKey] or [oauth2 implicit]`), the key sent as a bearer token may
 * satisfy the other alternative, so it is never counted against the provider. Each against a
 * small provider of the test's own over HTTP: a correct one passes, one ignoring the credential fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContractUsageError, type ContractReport } from '../index.js';
import { runContract } from './contract-command.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const KEY = 'Token 9f3a7c1e5b';
const Site = {
  type: 'object',
  required: ['name'],
  properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 40 } },
};
const Problem = { description: 'A problem', content: { 'application/json': { schema: { type: 'object', properties: { detail: { type: 'string' } } } } } };
const sites = (security: unknown[]) => ({
  '/sites': {
    get: {
      operationId: 'listSites',
      security,
      responses: { '200': { description: 'Sites', content: { 'application/json': { schema: { type: 'array', items: Site } } } }, '401': Problem },
    },
    post: {
      operationId: 'createSite',
      security,
      requestBody: { required: true, content: { 'application/json': { schema: Site } } },
      responses: { '201': { description: 'The site', content: { 'application/json': { schema: Site } } }, '400': Problem, '401': Problem, '415': Problem },
    },
  },
  '/sites/{id}': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
    get: { operationId: 'getSite', security, responses: { '200': { description: 'The site', content: { 'application/json': { schema: Site } } }, '401': Problem, '404': Problem } },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'authorization-api-key-'));
const write = (name: string, spec: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(spec));
  return file;
};
// The NetBox shape: `Authorization: Token <key>`, declared as an API key in the Authorization header.
const TOKEN_SPEC = write('token.json', {
  openapi: '3.0.3',
  info: { title: 'Sites', version: '1' },
  security: [{ tokenAuth: [] }],
  paths: sites([{ tokenAuth: [] }]),
  components: { securitySchemes: { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token-based authentication with required prefix "Token"' } } },
});
// An API key or an OAuth2 implicit token (the Petstore shape): the same key is also a bearer token there.
const ALTERNATIVES_SPEC = write('alternatives.json', {
  openapi: '3.0.3',
  info: { title: 'Sites', version: '1' },
  paths: sites([{ api_key: [] }, { sites_auth: ['write:sites'] }]),
  components: {
    securitySchemes: {
      api_key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      sites_auth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://example.test/oauth/authorize', scopes: { 'write:sites': 'modify sites' } } } },
    },
  },
});

/** A sites provider; `authorized` says whether a request's credential is good. */
function provider(authorized: (headers: Record<string, string | string[] | undefined>) => boolean): SmallHandler {
  const stored = new Map<number, { id: number; name: string }>();
  let last = 0;
  return (request, answer) => {
    if (!authorized(request.headers)) return answer(401, { detail: 'Authentication credentials were not provided or are invalid.' });
    const { pathname } = request.url;
    if (pathname === '/sites' && request.method === 'GET') return answer(200, [...stored.values()]);
    if (pathname === '/sites' && request.method === 'POST') {
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return answer(415, { detail: 'send JSON' });
      const body = request.json() as Record<string, unknown> | null | undefined;
      const name = body?.name;
      const valid = body !== null && typeof body === 'object' && !Array.isArray(body) && typeof name === 'string' && [...name].length >= 1 && [...name].length <= 40;
      if (!valid) return answer(400, { detail: 'a site is {name}' });
      const site = { id: ++last, name: name as string };
      stored.set(site.id, site);
      return answer(201, site);
    }
    const item = /^\/sites\/([^/]+)$/.exec(pathname);
    if (item && request.method === 'GET') {
      const site = /^[1-9]\d{0,8}$/.test(item[1] ?? '') ? stored.get(Number(item[1])) : undefined;
      return site ? answer(200, site) : answer(404, { detail: 'Not found.' });
    }
    answer(404, { detail: 'Not found.' });
  };
}

const single = (headers: Record<string, string | string[] | undefined>): string | undefined => (typeof headers.authorization === 'string' ? headers.authorization : undefined);
// DRF's TokenAuthentication: the keyword `Token` (case-insensitive), one space, the key.
const tokenAuthorized = (headers: Record<string, string | string[] | undefined>): boolean => {
  const [scheme, key, ...rest] = (single(headers) ?? '').split(' ');
  return rest.length === 0 && scheme?.toLowerCase() === 'token' && key === KEY.slice('Token '.length);
};
// The key in X-Api-Key, or the same key as an OAuth2 bearer token.
const KEY_OR_BEARER = 'k-51d0c2a8e7';
const keyOrBearer = (headers: Record<string, string | string[] | undefined>): boolean => headers['x-api-key'] === KEY_OR_BEARER || /^bearer +(.+)$/i.exec(single(headers) ?? '')?.[1] === KEY_OR_BEARER;

const run = (spec: string, token: string, authorized: (headers: Record<string, string | string[] | undefined>) => boolean): Promise<ContractReport> =>
  runSuiteAgainst(provider(authorized), { spec, token, seed: 38, generated: { positive: 2, negative: 2 }, fixtures: [] });
const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`);

describe('an API key in the Authorization header, with a scheme prefix of its own', () => {
  it('is sent as-is: a provider taking `Authorization: Token <key>` passes', async () => {
    const report = await run(TOKEN_SPEC, KEY, tokenAuthorized);
    expect(failures(report)).toEqual([]);
    const accepted = report.exchanges.filter((e) => e.case.expect === 'accepted' && e.outcome === 'response' && e.response.status < 300);
    expect(accepted.length).toBeGreaterThan(0);
    expect(report.checks.find((c) => c.name === 'ignored_auth')?.status).toBe('passed');
  });

  it('fails a provider that ignores the credential (ignored_auth)', async () => {
    const report = await run(TOKEN_SPEC, KEY, () => true);
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.name)).toEqual(['ignored_auth']);
    expect(failures(report).join('\n')).toMatch(/tokenAuth \(apiKey in the header authorization\)/);
  });

  it('is taken by the command line, and a refused token names the scheme it was refused for', async () => {
    const refused = await runContract(['--spec', TOKEN_SPEC, '--base-url', 'http://127.0.0.1:9', '--token', 'Token\tabc', '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(/tokenAuth \(apiKey in the header authorization\)/);
    expect(refused.output).not.toMatch(/Bearer/);
    const taken = await runContract(['--spec', TOKEN_SPEC, '--base-url', 'http://127.0.0.1:9', '--token', KEY, '--dry-run']);
    expect(taken.output).not.toMatch(/token must be/i);
    expect(taken.code).toBe(0);
  });

  it('refuses a token with spaces for a bearer scheme, naming that scheme', async () => {
    const bearerSpec = write('bearer.json', {
      openapi: '3.0.3',
      info: { title: 'Sites', version: '1' },
      paths: sites([{ jwt: [] }]),
      components: { securitySchemes: { jwt: { type: 'http', scheme: 'bearer' } } },
    });
    await expect(run(bearerSpec, KEY, tokenAuthorized)).rejects.toThrow(ContractUsageError);
    await expect(run(bearerSpec, KEY, tokenAuthorized)).rejects.toThrow(/jwt \(http bearer\)/);
  });
});

describe('security alternatives, one of them a bearer scheme', () => {
  it('never counts the key sent as a bearer token against a provider that takes it under the oauth2 alternative', async () => {
    const report = await run(ALTERNATIVES_SPEC, KEY_OR_BEARER, keyOrBearer);
    expect(failures(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'ignored_auth')?.status).toBe('passed');
    // The key as a bearer token was still sent, and what the provider did is reported.
    expect(report.exchanges.some((e) => e.case.id.endsWith('key-as-bearer') && e.case.expect === 'provider-choice')).toBe(true);
  });

  it('fails a provider that ignores the credential (ignored_auth)', async () => {
    const report = await run(ALTERNATIVES_SPEC, KEY_OR_BEARER, () => true);
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.name)).toEqual(['ignored_auth']);
  });
});
