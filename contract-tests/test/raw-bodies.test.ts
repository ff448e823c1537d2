/**
 * Operations whose required body the spec gives only a media type for: an upload in
 * `application/octet-stream` and a note in `text/plain`. The suite sends bytes of each (an octet
 * stream holding every byte value, random bytes and text), which must be accepted. A provider
 * taking any bytes passes; one that refuses bytes that are not UTF-8 (as the mock did) fails
 * positive_data_acceptance; the stateful mock passes. An operation whose body is an image is not
 * tested, and the report says why. Against small providers of the test's own (node:http) and the
 * mock over real HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

function writeSpec(name: string, paths: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'raw-bodies-')), name);
  writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info: { title: 'Uploads', version: '1' }, paths }));
  return file;
}

const SPEC = writeSpec('uploads.json', {
  '/files/{name}': {
    put: {
      operationId: 'uploadFile',
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } }],
      requestBody: { required: true, content: { 'application/octet-stream': {} } },
      responses: { '204': { description: 'stored' }, '400': { description: 'refused' } },
    },
  },
  '/notes': {
    post: {
      operationId: 'addNote',
      requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } } } },
      responses: { '201': { description: 'noted' }, '400': { description: 'refused' } },
    },
  },
});
const OPTIONS = { spec: SPEC, token: '', seed: 11, generated: { positive: 5, negative: 3 } };

/** A provider of the spec; `utf8Only` refuses uploads whose bytes are not UTF-8 text. */
function uploads(received: Buffer[], utf8Only = false): SmallHandler {
  return (request, answer) => {
    const file = /^\/files\/([a-z]+)$/.exec(request.url.pathname);
    if (request.method === 'PUT' && file) {
      if (request.headers['content-type'] !== 'application/octet-stream' || request.body.length === 0 || (utf8Only && !isUtf8(request.body))) return answer(400);
      received.push(request.body);
      return answer(204);
    }
    if (request.method === 'POST' && request.url.pathname === '/notes') return answer(isUtf8(request.body) && request.body.length > 0 ? 201 : 400);
    return answer(request.url.pathname.startsWith('/files/') ? 400 : 404);
  };
}

const failed = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`);
const judged = (report: ContractReport, check: string): number => report.checks.find((c) => c.name === check)?.judged ?? 0;

describe('bodies the spec gives only a media type for', () => {
  it('sends bytes to the upload and text to the note: a provider taking any bytes passes, and gets bytes that are no UTF-8', async () => {
    const received: Buffer[] = [];
    const report = await runSuiteAgainst(uploads(received), OPTIONS);
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(judged(report, 'positive_data_acceptance')).toBeGreaterThan(8);
    expect(received.some((body) => !isUtf8(body))).toBe(true);
    expect(received.some((body) => body.length === 256 && body.every((byte, i) => byte === i))).toBe(true);
  });

  it('fails a provider that refuses an upload whose bytes are not UTF-8', async () => {
    const report = await runSuiteAgainst(uploads([], true), OPTIONS);
    const refused = failed(report).filter((message) => message.startsWith('positive_data_acceptance generated:uploadFile/raw-body-'));
    expect(refused.length).toBeGreaterThan(0);
    expect(report.ok).toBe(false);
  });

  it('passes the stateful mock serving the same spec', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC });
    try {
      const report = await runContractSuite({ ...OPTIONS, baseUrl: mock.url });
      expect(failed(report)).toEqual([]);
      expect(judged(report, 'positive_data_acceptance')).toBeGreaterThan(8);
    } finally {
      await mock.close();
    }
  });

  it('does not test an operation whose body is an image, and says so', async () => {
    const spec = writeSpec('avatars.json', {
      '/avatars': { put: { operationId: 'putAvatar', requestBody: { required: true, content: { 'image/png': {} } }, responses: { '204': { description: 'stored' } } } },
      '/notes': { post: { operationId: 'addNote', requestBody: { required: true, content: { 'text/plain': {} } }, responses: { '201': { description: 'noted' } } } },
    });
    const report = await runSuiteAgainst(uploads([]), { ...OPTIONS, spec });
    expect(formatReport(report)).toMatch(/putAvatar +not tested: .*putAvatar requires a request body in image\/png, with no JSON or form schema/);
  });
});
