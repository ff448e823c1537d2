/**
 * Which `format`s the one judge asserts. OpenAPI 3.1's dialect has the format-annotation vocabulary:
 * a format is asserted only where JSON Schema or the OpenAPI format registry defines it. ajv-formats
 * adds a few of its own (`url`: an absolute http, https or ftp URL); a spec that writes `format: url`
 * (Jupyter Server's `Location: {type: string, format: url}`, answered `/api/sessions/<id>` by the
 * real server, as RFC 9110 §10.2.2 allows a relative reference) was judged by ajv-formats' meaning,
 * which the spec never gave it: the mock's relative Location failed response_headers_conformance.
 */
import { describe, expect, it, vi } from 'vitest';
import { judgeResponse } from '../../judge/response.js';
import { compileContract } from '../../operations/compile.js';
import type { ContractOperation } from '../../operations/model.js';

const locationAs = (format: string): ContractOperation => {
  const contract = compileContract(
    {
      openapi: '3.1.0',
      info: { title: 'Sessions', version: '1' },
      paths: {
        '/api/sessions': {
          post: {
            operationId: 'createSession',
            responses: { '201': { description: 'created', headers: { Location: { required: true, schema: { type: 'string', format } } } } },
          },
        },
      },
    },
    `sessions-${format}.json`,
  );
  return contract.operations.get('createSession') as ContractOperation;
};

const judged = (operation: ContractOperation, location: string): string[] =>
  judgeResponse(operation, { method: 'POST', status: 201, headers: { location, 'content-length': '0' }, body: '', by: 'the provider' }, 'all').map((v) => v.message);

describe('formats the judge asserts', () => {
  it('leaves `url`, which neither JSON Schema nor the OpenAPI registry defines, an annotation', () => {
    const operation = locationAs('url');
    expect(judged(operation, '/api/sessions/9cbbe1df-0011-1000-8e32-3227d89eed34')).toEqual([]);
    expect(judged(operation, 'https://jupyter.example/api/sessions/1')).toEqual([]);
  });

  it('still asserts the defined ones: `uri` must be absolute, `uri-reference` may be relative', () => {
    expect(judged(locationAs('uri'), '/api/sessions/1').join('\n')).toMatch(/uri/);
    expect(judged(locationAs('uri'), 'https://jupyter.example/api/sessions/1')).toEqual([]);
    expect(judged(locationAs('uri-reference'), '/api/sessions/1')).toEqual([]);
  });

  it('an unknown format is an annotation judged silently: nothing printed per compile (netlify declares `dateTime`: 442 lines buried a report)', () => {
    const printed = [vi.spyOn(console, 'warn').mockImplementation(() => undefined), vi.spyOn(console, 'log').mockImplementation(() => undefined)];
    try {
      const operation = locationAs('dateTime');
      expect(judged(operation, 'yesterday')).toEqual([]);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of printed) spy.mockRestore();
    }
  });
});
