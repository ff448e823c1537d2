/**
 * `--overlay` (and `overlay` of runContractSuite): what the CRUD rule cannot infer, stated as the
 * mock's x-mock-* extensions in an OpenAPI Overlay, applied by the same core loader the mock uses,
 * so that the suite sequences the collections the mock serves. Things keyed by a `{key}` no schema
 * declares: without the overlay neither tool sees a collection; with `x-mock-identity: /name` both
 * do, and the suite's sequence catches a provider whose read answers another thing. Over real HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runContractSuite } from '../index.js';
import type { ContractReport } from '../model.js';
import { runContract } from './contract-command.js';
import { runSuiteAgainst, startSmallProvider, type SmallHandler } from './providers/small-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'suite-overlay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[a-z0-9-]+$' }, colour: { type: 'string' } } };
const SPEC = file('things.json', {
  openapi: '3.1.0',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'addThing',
        requestBody: { required: true, content: { 'application/json': { schema: thing } } },
        responses: { '201': { description: 'added', content: { 'application/json': { schema: thing } } }, '400': { description: 'refused' } },
      },
    },
    '/things/{key}': {
      parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getThing', responses: { '200': { description: 'the thing', content: { 'application/json': { schema: thing } } }, '404': { description: 'none' } } },
    },
  },
});
const OVERLAY = file('hints.json', {
  overlay: '1.0.0',
  info: { title: 'what the rule cannot know', version: '1' },
  actions: [{ target: "$.paths['/things'].post", update: { 'x-mock-identity': '/name' } }],
});

/** A provider of things; `another`: its read answers another thing than the one asked for (when it has two). */
function things(another = false): SmallHandler {
  const stored = new Map<string, Record<string, unknown>>();
  const valid = (body: unknown): body is Record<string, unknown> =>
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    typeof (body as { name?: unknown }).name === 'string' &&
    /^[a-z0-9-]{1,40}$/.test((body as { name: string }).name) &&
    ((body as { colour?: unknown }).colour === undefined || typeof (body as { colour?: unknown }).colour === 'string');
  return (request, answer) => {
    if (request.method === 'POST' && request.url.pathname === '/things') {
      const body = request.json();
      if (!valid(body)) return answer(400);
      const record = { name: body.name, ...(body.colour === undefined ? {} : { colour: body.colour }) };
      stored.set(record.name as string, record);
      return answer(201, record);
    }
    const key = /^\/things\/([^/]+)$/.exec(request.url.pathname)?.[1];
    const record = key === undefined ? undefined : stored.get(decodeURIComponent(key));
    if (request.method !== 'GET' || !record) return answer(404);
    return answer(200, another ? ([...stored.values()].find((r) => r !== record) ?? record) : record);
  };
}

const options = { spec: SPEC, seed: 5, generated: { positive: 1, negative: 1 } } as const;
const sequenceKinds = (report: ContractReport): string[] => report.exchanges.flatMap((e) => (e.case.sequence ? [e.case.sequence.kind] : []));
const failed = (report: ContractReport): string[] => [...new Set(report.findings.filter((f) => f.severity === 'failure').map((f) => f.check))];

describe('an overlay given to the suite', () => {
  it('without it, things are no collection: no sequence, and a read answering another thing passes', async () => {
    const report = await runSuiteAgainst(things(true), options);
    expect(sequenceKinds(report)).toEqual([]);
    expect(failed(report)).toEqual([]);
  });

  it('with overlay (runContractSuite), the identity it names is the one the sequence follows: a correct provider passes', async () => {
    const report = await runSuiteAgainst(things(), { ...options, overlay: OVERLAY });
    expect(failed(report)).toEqual([]);
    const reads = report.exchanges.filter((e) => e.case.sequence?.kind === 'read');
    expect(reads.length).toBeGreaterThan(0);
    const create = report.exchanges.find((e) => e.case.sequence?.kind === 'create');
    const name = (JSON.parse(String(create?.request.body)) as { name: string }).name;
    expect(reads.map((e) => new URL(e.request.url).pathname)).toContain(`/things/${name}`);
  });

  it('with --overlay on the command line, a read answering another thing fails resource_consistency (exit 1)', async () => {
    const provider = await startSmallProvider(things(true));
    try {
      const run = await runContract(['--base-url', provider.url, '--spec', SPEC, '--overlay', OVERLAY, '--seed', '5', '--generated', '1']);
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/resource_consistency/);
      expect(run.output).toMatch(/answered the record whose name is/);
    } finally {
      await provider.close();
    }
  });

  it('a malformed overlay or extension is a usage error naming its pointer (exit 2), never a crash', async () => {
    const bad = file('bad.json', { overlay: '1.0.0', info: { title: 't', version: '1' }, actions: [{ target: "$.paths['/things'].post", update: { 'x-mock-identity': 'name' } }] });
    const run = await runContract(['--base-url', 'http://127.0.0.1:9/', '--spec', SPEC, '--overlay', bad]);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/#\/paths\/~1things\/post\/x-mock-identity: must be a JSON pointer/);
    expect(run.output).not.toMatch(/could not run/);
    await expect(runContractSuite({ baseUrl: 'http://127.0.0.1:9/', spec: SPEC, overlay: file('none.json', { overlay: '2.0.0' }) })).rejects.toThrow(/overlay .*none\.json#\/overlay/);
  });
});
