/**
 * response_echoes_request inside the values sent (libre-graph's UpdateDrive): a PATCH in
 * `application/json` sending `owner: {group: …}` to a drive whose owner already names a user may be
 * merged into the record (RFC 7396, OData 4.01 §11.4.3: members not named are kept) or replace the
 * owner; both are correct, and the answer holds every member sent. A member the request's schema
 * declares writeOnly (a nested password) is never answered back. Before, the check compared the
 * nested values as JSON text and failed both correct providers below (and our own mock); a provider
 * that does not apply the nested object it was sent still fails.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const DRIVE = { content: { 'application/json': { schema: { $ref: '#/components/schemas/drive' } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Drives', version: '1' },
  paths: {
    '/drives': {
      post: {
        operationId: 'CreateDrive',
        requestBody: { required: true, ...DRIVE },
        responses: { '201': { description: 'created', ...DRIVE }, '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } } },
      },
    },
    '/drives/{drive-id}': {
      parameters: [{ name: 'drive-id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'GetDrive',
        responses: { '200': { description: 'the drive', ...DRIVE }, '404': { description: 'none', content: { 'application/json': { schema: ERROR } } } },
      },
      patch: {
        operationId: 'UpdateDrive',
        requestBody: { required: true, ...DRIVE },
        responses: {
          '200': { description: 'updated', ...DRIVE },
          '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } },
          '404': { description: 'none', content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
  },
  components: {
    schemas: {
      drive: {
        type: 'object',
        required: ['name', 'owner'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', maxLength: 20 },
          owner: { $ref: '#/components/schemas/identitySet' },
          profile: { $ref: '#/components/schemas/profile' },
        },
      },
      identitySet: { type: 'object', properties: { user: { $ref: '#/components/schemas/identity' }, group: { $ref: '#/components/schemas/identity' } } },
      identity: { type: 'object', required: ['displayName'], properties: { displayName: { type: 'string', maxLength: 20 }, id: { type: 'string', maxLength: 20 } } },
      profile: { type: 'object', properties: { forceChange: { type: 'boolean' }, password: { type: 'string', writeOnly: true, maxLength: 20 } } },
    },
  },
};

type Json = Record<string, unknown>;
const isPlain = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** RFC 7396: members merged recursively, null removes. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlain(patch)) return patch;
  const out: Json = isPlain(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else out[name] = mergePatch(out[name], value);
  }
  return out;
}

/** Whether a value nests no deeper than `levels` (the suite sends bodies nested thousands deep: refused, as a real service would). */
function shallow(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  return levels > 0 && Object.values(value).every((inner) => shallow(inner, levels - 1));
}

/** What a drive answers: its profile's password never. */
function answered(drive: Json): Json {
  if (!isPlain(drive.profile)) return drive;
  const { password: _password, ...profile } = drive.profile;
  return { ...drive, profile };
}

/** A drive provider whose PATCH merges nested objects, replaces the members sent, or (broken) keeps the nested objects it had. */
function driveProvider(patching: 'merge' | 'replace' | 'keep-nested'): SmallHandler {
  const drives = new Map<string, Json>();
  let next = 1;
  const valid = (body: unknown, creating: boolean): body is Json =>
    isPlain(body) &&
    shallow(body, 4) &&
    (!creating || (typeof body.name === 'string' && isPlain(body.owner))) &&
    (body.name === undefined || (typeof body.name === 'string' && [...body.name].length <= 20)) &&
    (body.owner === undefined || isPlain(body.owner)) &&
    (body.profile === undefined || isPlain(body.profile));
  return (request, answer) => {
    const path = request.url.pathname;
    const body = request.json();
    if (request.method === 'POST' && path === '/drives') {
      if (!valid(body, true)) return answer(400, { message: 'invalid drive' });
      const drive = { ...body, id: String(next++) };
      drives.set(drive.id, drive);
      return answer(201, answered(drive));
    }
    const match = /^\/drives\/([^/]+)$/.exec(path);
    const drive = match && drives.get(decodeURIComponent(match[1] as string));
    if (!match || !drive) return answer(404, { message: 'no such drive' });
    if (request.method === 'GET') return answer(200, answered(drive));
    if (request.method !== 'PATCH') return answer(404, { message: 'no such route' });
    if (!valid(body, false)) return answer(400, { message: 'invalid drive' });
    const { id: _id, ...changes } = body;
    let updated: Json;
    if (patching === 'merge') updated = mergePatch(drive, changes) as Json;
    else if (patching === 'replace') updated = { ...drive, ...changes };
    else updated = { ...drive, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => !isPlain(value))) };
    drives.set(drive.id as string, updated);
    return answer(200, answered(updated));
  };
}

const contract = compileSuiteSpec(SPEC, 'drives.json');
const run = (patching: 'merge' | 'replace' | 'keep-nested') =>
  runSuiteAgainst(driveProvider(patching), { token: '', contract, seed: 5, generated: { positive: 8, negative: 0 }, checks: ['response_echoes_request'] });

describe('response_echoes_request inside the values sent', () => {
  it.each(['merge', 'replace'] as const)('passes a PATCH that %ss the nested objects sent, and never expects a writeOnly member back', async (patching) => {
    const report = await run(patching);
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    const echoes = report.checks.find((c) => c.name === 'response_echoes_request');
    expect(echoes?.judged).toBeGreaterThan(0);
  });

  it('fails a PATCH that keeps the nested objects it had instead of what was sent', async () => {
    const report = await run('keep-nested');
    const failures = report.findings.filter((f) => f.severity === 'failure' && f.check === 'response_echoes_request');
    expect(failures.length, formatReport(report)).toBeGreaterThan(0);
    expect(failures.every((f) => f.exchange.request.method === 'PATCH' && /owner|profile/.test(f.message))).toBe(true);
  });
});
