/**
 * The compiled route table (engine/routes.ts) routes exactly as openapi-backend's own
 * `router.matchOperation`: one table of cases (hono's router tests' `runTest({ newRouter })`
 * pattern) run against both — path parameters, encoded segments, trailing slashes, overlapping
 * templates, methods. Where the two part on purpose the case says so.
 */
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../openapi/operations/compile.js';
import { compileRoutes } from '../engine/routes.js';

type Outcome = { operationId: string; params: Record<string, string> } | 404 | 405 | 'throws';
type Router = (method: string, path: string) => Outcome;

const op = (operationId: string, parameters: string[] = []) => ({
  operationId,
  parameters: parameters.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
  responses: { '200': { description: 'ok' } },
});

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Routes', version: '1' },
  paths: {
    '/': { get: op('root') },
    '/pets': { get: op('listPets'), post: op('createPet') },
    '/pets/mine': { get: op('myPets') },
    '/pets/{id}': { get: op('getPet', ['id']), delete: op('deletePet', ['id']) },
    // An equivalent template under another name (the spec calls it invalid; documents have it all the same).
    '/pets/{petId}': { put: op('replacePet', ['petId']) },
    '/pets/{id}/toys/{toyId}': { get: op('getToy', ['id', 'toyId']) },
    '/files/{name}.json': { get: op('getFile', ['name']) },
    // Adjacent templates in one segment: matched without a backtracking regex (issue 39, item 2).
    '/files/{name}.{ext}': { get: op('getAnyFile', ['name', 'ext']) },
    '/releases/{major}.{minor}.{patch}': { get: op('getRelease', ['major', 'minor', 'patch']) },
    '/tags/v{major}-{label}': { get: op('getTag', ['major', 'label']) },
    '/users/{userId}/': { get: op('getUser', ['userId']) },
    '/a/{x}/c': { get: op('aXc', ['x']) },
    '/a/bb/{y}': { get: op('abY', ['y']) },
    '/t/{x}/c': { get: op('tXc', ['x']) },
    '/t/b/{y}': { get: op('tbY', ['y']) },
  },
};

interface Case {
  name: string;
  method: string;
  path: string;
  expected: Outcome;
  /** openapi-backend's answer where the mock parts from it on purpose, and why. */
  theirs?: { outcome: Outcome; why: string };
}

/** Where openapi-backend routes alike but reads the values of adjacent templates otherwise. */
const ADJACENT_WHY = "openapi-backend's parseRequest reads adjacent templates' values wrongly (the first takes all but a character, the others are empty); it routes to the same operation";

const CASES: Case[] = [
  { name: 'the root', method: 'GET', path: '/', expected: { operationId: 'root', params: {} } },
  { name: 'a static path', method: 'GET', path: '/pets', expected: { operationId: 'listPets', params: {} } },
  { name: 'another method of a static path', method: 'POST', path: '/pets', expected: { operationId: 'createPet', params: {} } },
  { name: 'a method a static path does not take', method: 'DELETE', path: '/pets', expected: 405 },
  { name: 'HEAD is not GET', method: 'HEAD', path: '/pets', expected: 405 },
  { name: 'a trailing slash', method: 'GET', path: '/pets/', expected: { operationId: 'listPets', params: {} } },
  { name: 'several trailing slashes', method: 'GET', path: '/pets///', expected: { operationId: 'listPets', params: {} } },
  { name: 'paths are case-sensitive', method: 'GET', path: '/PETS', expected: 404 },
  { name: 'an unknown path', method: 'GET', path: '/plants', expected: 404 },
  { name: 'a doubled leading slash', method: 'GET', path: '//pets', expected: 404 },
  { name: 'a static path before a template', method: 'GET', path: '/pets/mine', expected: { operationId: 'myPets', params: {} } },
  { name: 'a template where the static path lacks the method', method: 'DELETE', path: '/pets/mine', expected: { operationId: 'deletePet', params: { id: 'mine' } } },
  { name: 'a path parameter', method: 'GET', path: '/pets/7', expected: { operationId: 'getPet', params: { id: '7' } } },
  { name: 'a path parameter and a trailing slash', method: 'GET', path: '/pets/7/', expected: { operationId: 'getPet', params: { id: '7' } } },
  { name: 'an equivalent template names its own parameter', method: 'PUT', path: '/pets/7', expected: { operationId: 'replacePet', params: { petId: '7' } } },
  { name: 'a method no template of the path takes', method: 'PATCH', path: '/pets/7', expected: 405 },
  { name: 'a percent-encoded space', method: 'GET', path: '/pets/a%20b', expected: { operationId: 'getPet', params: { id: 'a b' } } },
  { name: 'an encoded slash stays in its segment', method: 'GET', path: '/pets/a%2Fb', expected: { operationId: 'getPet', params: { id: 'a/b' } } },
  { name: 'encoded UTF-8', method: 'GET', path: '/pets/%E2%9C%93', expected: { operationId: 'getPet', params: { id: '✓' } } },
  { name: 'a plus is not a space in a path', method: 'GET', path: '/pets/a+b', expected: { operationId: 'getPet', params: { id: 'a+b' } } },
  {
    name: 'a malformed escape',
    method: 'GET',
    path: '/pets/%zz',
    expected: { operationId: 'getPet', params: { id: '%zz' } },
    theirs: { outcome: 'throws', why: "openapi-backend's decodeURIComponent throws URIError; the mock keeps the segment as sent and lets the schema judge it" },
  },
  { name: 'an empty segment matches no template', method: 'GET', path: '/pets//toys/9', expected: 404 },
  { name: 'two parameters', method: 'GET', path: '/pets/7/toys/9', expected: { operationId: 'getToy', params: { id: '7', toyId: '9' } } },
  { name: 'a literal dot after a parameter', method: 'GET', path: '/files/report.json', expected: { operationId: 'getFile', params: { name: 'report' } } },
  { name: 'the dot is not any character', method: 'GET', path: '/files/reportXjson', expected: 404 },
  {
    name: 'two adjacent templates',
    method: 'GET',
    path: '/files/report.csv',
    expected: { operationId: 'getAnyFile', params: { name: 'report', ext: 'csv' } },
    theirs: { outcome: { operationId: 'getAnyFile', params: { name: 'report.cs', ext: '' } }, why: ADJACENT_WHY },
  },
  {
    name: 'adjacent templates split at the last literal',
    method: 'GET',
    path: '/files/a.tar.gz',
    expected: { operationId: 'getAnyFile', params: { name: 'a.tar', ext: 'gz' } },
    theirs: { outcome: { operationId: 'getAnyFile', params: { name: 'a.tar.g', ext: '' } }, why: ADJACENT_WHY },
  },
  {
    name: 'three adjacent templates',
    method: 'GET',
    path: '/releases/1.22.333',
    expected: { operationId: 'getRelease', params: { major: '1', minor: '22', patch: '333' } },
    theirs: { outcome: { operationId: 'getRelease', params: { major: '1.22.3', minor: '', patch: '' } }, why: ADJACENT_WHY },
  },
  {
    name: 'three adjacent templates, the first takes the extra dots',
    method: 'GET',
    path: '/releases/1.2.3.4',
    expected: { operationId: 'getRelease', params: { major: '1.2', minor: '3', patch: '4' } },
    theirs: { outcome: { operationId: 'getRelease', params: { major: '1.2.3', minor: '', patch: '' } }, why: ADJACENT_WHY },
  },
  { name: 'adjacent templates: an empty value matches not', method: 'GET', path: '/releases/1..3', expected: 404 },
  { name: 'adjacent templates: too few literals', method: 'GET', path: '/releases/1.2', expected: 404 },
  {
    name: 'adjacent templates: a segment of dots only',
    method: 'GET',
    path: `/releases/${'.'.repeat(7)}`,
    expected: { operationId: 'getRelease', params: { major: '...', minor: '.', patch: '.' } },
    theirs: { outcome: { operationId: 'getRelease', params: { major: '.....', minor: '', patch: '' } }, why: ADJACENT_WHY },
  },
  { name: 'adjacent templates: dots, then another segment', method: 'GET', path: `/releases/${'.'.repeat(40)}/x`, expected: 404 },
  { name: 'a literal prefix, the first value takes the extra dash', method: 'GET', path: '/tags/v1-rc-2', expected: { operationId: 'getTag', params: { major: '1-rc', label: '2' } } },
  { name: 'a literal prefix missing', method: 'GET', path: '/tags/1-rc', expected: 404 },
  { name: 'a literal prefix with nothing after it', method: 'GET', path: '/tags/v-rc', expected: 404 },
  ...['/users/5', '/users/5/'].map((path) => ({
    name: 'a template the document writes with a trailing slash',
    method: 'GET',
    path,
    expected: { operationId: 'getUser', params: { userId: '5' } },
    theirs: { outcome: 404 as const, why: "openapi-backend strips the request's trailing slashes but not the template's, so it never matches" },
  })),
  { name: 'overlapping templates: the more literal one wins', method: 'GET', path: '/a/bb/c', expected: { operationId: 'abY', params: { y: 'c' } } },
  { name: 'overlapping templates as literal as each other: the first in the document', method: 'GET', path: '/t/b/c', expected: { operationId: 'tXc', params: { x: 'b' } } },
  { name: 'overlapping templates: the other where only it matches', method: 'GET', path: '/a/x/c', expected: { operationId: 'aXc', params: { x: 'x' } } },
  { name: 'overlapping templates: neither', method: 'GET', path: '/a/x/d', expected: 404 },
];

/** hono's pattern: one table of cases, run against every router implementation. */
function runTest({ name, newRouter, theirs = false }: { name: string; newRouter: () => Promise<Router>; theirs?: boolean }): void {
  describe(name, () => {
    it.each(CASES)('$method $path: $name', async (routeCase) => {
      const route = await newRouter();
      const expected = theirs && routeCase.theirs ? routeCase.theirs.outcome : routeCase.expected;
      expect(route(routeCase.method, routeCase.path)).toEqual(expected);
    });
  });
}

async function backend(): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({ definition: structuredClone(DOCUMENT) as unknown as Document, quick: true, validate: false });
  await api.init();
  return api;
}

let ours: Promise<Router> | undefined;
runTest({
  name: "the mock's compiled route table",
  newRouter: () =>
    (ours ??= (async () => {
      const table = compileRoutes(compileContract(structuredClone(DOCUMENT), 'routes'), new Set(), { notImplemented: () => ({ status: 200 }) }, new Map());
      return (method, path) => {
        const found = table.route(method, path);
        if (found.kind === 'not-found') return 404;
        if (found.kind === 'method-not-allowed') return 405;
        return { operationId: found.operation.operationId, params: { ...found.params } };
      };
    })()),
});

let reference: Promise<Router> | undefined;
runTest({
  name: "openapi-backend's router.matchOperation",
  theirs: true,
  newRouter: () =>
    (reference ??= (async () => {
      const api = await backend();
      return (method, path) => {
        const request = { method, path, headers: {} };
        try {
          const operation = api.router.matchOperation(request, true);
          if (!operation) return 404;
          return { operationId: operation.operationId as string, params: api.router.parseRequest(request, operation).params as Record<string, string> };
        } catch (error) {
          const message = (error as Error).message;
          if (message.startsWith('404')) return 404;
          if (message.startsWith('405')) return 405;
          return 'throws';
        }
      };
    })()),
});
