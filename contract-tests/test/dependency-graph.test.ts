/**
 * The operations' dependency graph (openapi/operations/dependencies.ts) and what the suite does with
 * it (contract-tests/dependencies.ts, runner.ts): on fixtures/specs/trains-3.1, a payment below a
 * booking is sent to a booking the suite created first (and deleted last), trips are searched
 * between stations a list answered, a booking names a trip that list answered, so a correct provider that answers 400 for an unknown booking
 * passes, and flaws only a real parent or real stations reach are found.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { compileContract, loadContract } from '../../openapi/operations/compile.js';
import { dependencyGraph, describeDependencies, recordParameters } from '../../openapi/operations/dependencies.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { parentNeeds, queryValue, resourceQueries } from '../dependencies.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { suiteSpecOf } from '../spec-contract.js';
import { STATIONS, startTrainsProvider, TRAINS_SPEC, TRIP_ID, type TrainsFlaw } from './providers/trains-provider.js';

const TOKEN = 'trains-token';
const CLI = fileURLToPath(new URL('../../dist/contract-tests/cli.js', import.meta.url));

async function runAgainst(flaw?: TrainsFlaw): Promise<ContractReport> {
  const provider = await startTrainsProvider(TOKEN, flaw);
  try {
    return await runContractSuite({ spec: TRAINS_SPEC, baseUrl: provider.url, token: TOKEN, seed: 5, generated: { positive: 3, negative: 3 } });
  } finally {
    await provider.close();
  }
}

const failedChecks = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);

describe('the dependency graph', () => {
  const compiled = loadContract(TRAINS_SPEC);
  const graph = dependencyGraph(compiled);

  it('says which answer produces each value a request consumes: the item path, a parent, a description naming the resource', () => {
    const of = (operationId: string) => graph.find((e) => e.operationId === operationId)?.consumes;
    expect(of('payBooking')).toEqual([{ parameter: 'bookingId', in: 'path', producer: 'createBooking', property: 'id', source: 'parent', collection: '/bookings' }]);
    expect(of('getBooking')).toEqual([{ parameter: 'bookingId', in: 'path', producer: 'createBooking', property: 'id', source: 'record', collection: '/bookings' }]);
    expect(of('getTrips')).toEqual([
      { parameter: 'origin', in: 'query', producer: 'getStations', property: 'id', source: 'description' },
      { parameter: 'destination', in: 'query', producer: 'getStations', property: 'id', source: 'description' },
    ]);
    // A body property named for a resource with an id suffix names its record (RESTler's producer-consumer match by name).
    expect(of('createBooking')).toEqual([{ parameter: 'trip_id', in: 'body', producer: 'getTrips', property: 'id', source: 'name' }]);
    // A list's own filter names no other resource; a free-text parameter none at all.
    expect(of('getStations')).toEqual([]);
  });

  it('matches by name (stationId, station_id, station) and prefers a declared link', () => {
    const document = structuredClone(compiled.document) as Record<string, any>;
    document.paths['/departures'] = {
      get: {
        operationId: 'getDepartures',
        parameters: ['stationId', 'station_id', 'station', 'country_code'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        responses: { '200': { description: 'ok' } },
      },
    };
    document.paths['/bookings'].post.responses['201'].links = { Departures: { operationId: 'getDepartures', parameters: { station: '$response.body#/trip_id' } } };
    const named = dependencyGraph(compileContract(document, 'trains.yaml')).find((e) => e.operationId === 'getDepartures')?.consumes;
    expect(named?.map((d) => `${d.parameter}←${d.producer}(${d.source})`)).toEqual(['stationId←getStations(name)', 'station_id←getStations(name)', 'station←createBooking(link)']);
  });

  it("takes a POST answering a list noun's id for the maker of that list's records only when its request does not give that id itself", () => {
    const list = (items: Record<string, unknown>) => ({ '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: items } } } } } });
    const answer = (properties: Record<string, unknown>) => ({ '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } });
    const id = { type: 'string' };
    const path = (name: string) => ({ name, in: 'path', required: true, schema: id });
    const document = {
      openapi: '3.1.0',
      info: { title: 'makers', version: '1' },
      paths: {
        '/projects': { get: { operationId: 'listProjects', responses: list({ id }) } },
        '/projects/{projectId}': { get: { operationId: 'getProject', parameters: [path('projectId')], responses: answer({ id }) } },
        // A team's answer names its project, given in the path: no project is made.
        '/projects/{projectId}/teams': {
          post: {
            operationId: 'createTeam',
            parameters: [path('projectId')],
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: answer({ id, projectId: id }),
          },
        },
        '/schemas': { get: { operationId: 'listSchemas', responses: list({ id }) } },
        '/schemas/{id}': { get: { operationId: 'getSchema', parameters: [path('id')], responses: answer({ id }) } },
        // An identity's answer names the schema its body chose: no schema is made.
        '/identities': {
          post: {
            operationId: 'createIdentity',
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { schema_id: id } } } } },
            responses: answer({ id, schema_id: id }),
          },
        },
        '/workflows/{workflowId}/instances': { get: { operationId: 'listInstances', parameters: [path('workflowId')], responses: list({ id }) } },
        '/workflows/{workflowId}/instances/{instanceId}': { get: { operationId: 'getInstance', parameters: [path('workflowId'), path('instanceId')], responses: answer({ id }) } },
        // A trigger answering an instance it made: the maker of the instances.
        '/workflows/{workflowId}/trigger': {
          post: { operationId: 'trigger', parameters: [path('workflowId')], requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: answer({ instance_id: id }) },
        },
        // A POST at the list's own path taking query parameters only (no collection's create), answering the new runner's id: its maker.
        '/runners': {
          get: { operationId: 'listRunners', responses: list({ id }) },
          post: { operationId: 'createRunner', parameters: [{ name: 'site_id', in: 'query', required: true, schema: id }], responses: answer({ id, state: id }) },
        },
        '/runners/{runnerId}/archive': { post: { operationId: 'archiveRunner', parameters: [path('runnerId')], responses: answer({ id }) } },
        // One answering no id makes nothing a client can name: the list stays the producer.
        '/keys': {
          get: { operationId: 'listKeys', responses: list({ id }) },
          post: { operationId: 'rotateKeys', responses: answer({ rotated: id }) },
        },
        '/keys/{keyId}': { get: { operationId: 'getKey', parameters: [path('keyId')], responses: answer({ id }) } },
      },
    };
    const graph = dependencyGraph(compileContract(document, 'makers.yaml'));
    const producer = (operationId: string, parameter: string) => graph.find((e) => e.operationId === operationId)?.consumes.find((d) => d.parameter === parameter)?.producer;
    expect(producer('getProject', 'projectId')).toBe('listProjects');
    expect(producer('getSchema', 'id')).toBe('listSchemas');
    expect(producer('getInstance', 'instanceId')).toBe('trigger');
    expect(producer('archiveRunner', 'runnerId')).toBe('createRunner');
    expect(producer('getKey', 'keyId')).toBe('listKeys');
  });

  it('names the path parameters naming a record a client makes, which the mock and the missing-parent reads both read: on or below an item path, or a top-level identity by name; never a list-only id', () => {
    const text = { type: 'string' };
    const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
    const answer = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } }, '404': { description: 'none' } });
    const path = (name: string) => ({ name, in: 'path', required: true, schema: text });
    const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
    const document = {
      openapi: '3.1.0',
      info: { title: 'records', version: '1' },
      paths: {
        '/sites': { post: { operationId: 'createSite', requestBody: body(object({ name: text })), responses: answer(object({ id: text, name: text })) } },
        '/sites/{site_id}': { get: { operationId: 'getSite', parameters: [path('site_id')], responses: answer(object({ id: text })) } },
        '/sites/{site_id}/certificates': { get: { operationId: 'getCertificates', parameters: [path('site_id')], responses: answer({ type: 'array', items: object({ domain: text }) }) } },
        '/silences': { post: { operationId: 'postSilence', requestBody: body(object({ comment: text })), responses: answer(object({ silenceID: text })) } },
        '/silence/{silenceID}': { get: { operationId: 'getSilence', parameters: [path('silenceID')], responses: answer(object({ id: text })) } },
        '/mutes': { post: { operationId: 'postMute', requestBody: body(object({ comment: text })), responses: answer(object({ muteID: text })) } },
        '/muting/{muteID}': { get: { operationId: 'getMute', parameters: [path('muteID')], responses: answer(object({ id: text })) } },
        '/plugins': { get: { operationId: 'getPlugins', responses: answer({ type: 'array', items: object({ id: text }) }) } },
        '/plugins/{pluginId}/config': { get: { operationId: 'getPluginConfig', parameters: [path('pluginId')], responses: answer(object({})) } },
      },
    };
    const records = recordParameters(compileContract(document, 'records.yaml'));
    const named = Object.fromEntries([...records].map(([operationId, list]) => [operationId, list.map((r) => `${r.parameter} ${r.collection.path} (${r.source})`)]));
    expect(named).toEqual({
      getSite: ['site_id /sites (record)'],
      getCertificates: ['site_id /sites (parent)'],
      // The singular item path of /silences (collections.ts); /muting/{muteID} is no item path: muteID is named by the create's answer.
      getSilence: ['silenceID /silences (record)'],
      getMute: ['muteID /mutes (name)'],
    });
  });

  it('plans a parent record for the payment, and list values for the trips', () => {
    const operations = suiteSpecOf(compiled).operations;
    const needs = parentNeeds(graph, operations, recogniseCollections(compiled).collections);
    expect(needs.map((n) => [n.collection.path, n.before, n.children])).toEqual([['/bookings', [], [{ operationId: 'payBooking', parameter: 'bookingId' }]]]);
    const queries = resourceQueries(graph, operations);
    expect(queries.map((q) => `${q.in} ${q.parameter}`)).toEqual(['query origin', 'query destination', 'body trip_id']);
    expect(queryValue(queries[0] as (typeof queries)[0], new Map([['getStations', '"s1"']]), 'x')).toBe('"s1"');
    expect(queryValue(queries[0] as (typeof queries)[0], new Map(), 'example-id')).toBe('"example-id"');
    expect(queryValue(queries[0] as (typeof queries)[0], new Map(), undefined)).toBeUndefined();
  });

  it('is printed by --dry-run, one short list per operation, and nothing is sent', () => {
    const text = execFileSync(process.execPath, [CLI, '--dry-run', '--spec', TRAINS_SPEC], { encoding: 'utf8' });
    expect(text).toContain(describeDependencies(graph).join('\n'));
    expect(text).toContain('POST /bookings/{bookingId}/payment\n  {bookingId} ← createBooking .id (parent)');
    expect(text).toContain('POST /bookings\n  body .trip_id ← getTrips .id (name)');
    expect(text).toContain('/bookings: createBooking → getBooking → getBookings → deleteBooking');
  });
});

describe('a run that follows the graph', () => {
  it('passes a correct provider that answers 400 for a booking it does not have, or of a trip it does not run: every payment case goes to a booking the suite created, every booking names the trip a list answered', async () => {
    const report = await runAgainst();
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.exchange.case.id} ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    const payments = report.exchanges.filter((x) => x.case.operationId === 'payBooking' && x.case.expect === 'accepted' && !x.case.id.includes('path-bookingId'));
    expect(payments.length).toBeGreaterThan(10);
    expect(payments.filter((x) => x.outcome !== 'response' || x.response.status !== 200 || !x.case.onRecord).map((x) => x.case.id)).toEqual([]);
    // The closing counts of the run: the graph's size, and the one operation below a parent ran on one the suite made.
    expect(report.dependencies).toEqual({ values: 6, consumers: 5, belowParent: 1, onCreatedParent: 1, notOnCreated: [] });
    expect(formatReport(report)).toContain('Dependency graph: 6 values consumed by 5 operations (--dry-run lists them); 1 of the 1 operations below a parent record ran on one the suite created.');
    // The trip a booking names comes from GET /trips, itself asked between stations GET /stations answered: never made up.
    const bookings = report.exchanges.filter((x) => x.case.operationId === 'createBooking' && x.case.expect === 'accepted' && typeof x.case.request.body === 'string');
    expect(bookings.length).toBeGreaterThan(5);
    expect(bookings.filter((x) => (JSON.parse(x.case.request.body as string) as { trip_id?: unknown }).trip_id !== TRIP_ID).map((x) => x.case.id)).toEqual([]);
    const trips = report.exchanges.filter((x) => x.case.operationId === 'getTrips' && x.case.expect === 'accepted');
    expect(trips.length).toBeGreaterThan(0);
    for (const trip of trips) {
      const url = new URL(trip.request.url);
      expect(STATIONS.map((s) => s.id)).toContain(url.searchParams.get('origin'));
      expect(trip.outcome === 'response' && trip.response.status).toBe(200);
    }
  });

  it.each([
    ['payment-status-outside-enum', 'response_schema_conformance'],
    ['departure-without-offset', 'response_schema_conformance'],
    ['zero-amount-accepted', 'negative_data_rejection'],
    // The spec declares 404 for deleting a booking it does not have: the sequence deletes one never created.
    ['delete-unknown-204', 'missing_resource_not_found'],
  ] as const)('finds a flaw only a real parent or real stations reach: %s fails %s', async (flaw, check) => {
    expect(failedChecks(await runAgainst(flaw))).toContain(check);
  });
});

describe('a value held for a parameter its schema refuses', () => {
  /** Charges keyed by a code the client chooses; a usage read filtered by `charge_id`, a uuid: the graph names the charges' code for it by name. */
  const usage = {
    openapi: '3.1.0',
    info: { title: 'Usage', version: '1' },
    paths: {
      '/charges': {
        post: {
          operationId: 'createCharge',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, name: { type: 'string' } } } } },
          },
          responses: {
            '201': { description: 'created', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' }, name: { type: 'string' } } } } } },
          },
        },
      },
      '/charges/{code}': {
        get: {
          operationId: 'getCharge',
          parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' } } } } } }, '404': { description: 'missing' } },
        },
      },
      '/usage': {
        get: {
          operationId: 'getUsage',
          parameters: [{ name: 'charge_id', in: 'query', schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { total: { type: 'integer' } } } } } } },
        },
      },
    },
  };

  it('is not sent there: the parameter keeps a valid value of its own, and the mock accepts every valid case', async () => {
    const graphOf = dependencyGraph(compileContract(usage, 'usage.json'));
    expect(graphOf.find((e) => e.operationId === 'getUsage')?.consumes).toEqual([expect.objectContaining({ parameter: 'charge_id', producer: 'createCharge', property: 'code' })]);
    const dir = mkdtempSync(join(tmpdir(), 'held-values-'));
    const spec = join(dir, 'usage.json');
    writeFileSync(spec, JSON.stringify(usage));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      const report = await runContractSuite({ spec, baseUrl: mock.url, token: '', seed: 5, generated: { positive: 2, negative: 2 } });
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 200)}`)).toEqual([]);
      const every = report.exchanges.find((e) => e.case.id === 'generated:getUsage/request-every-parameter');
      expect(new URL(every?.request.url ?? 'http://x/').searchParams.get('charge_id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    } finally {
      await mock.close();
    }
  });
});
