/**
 * For the corpus tests (fixtures/specs/): calls over real HTTP, and the check that an answer is
 * one the operation declares, by the one judge.
 */
import { expect } from 'vitest';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { judgeResponse } from '../../openapi/judge/response.js';
import { mediaEssence } from '../../openapi/media-types.js';
import type { ContractOperation } from '../../openapi/operations/model.js';
import type { MockServer } from '../server.js';
import { jsonOrUndefined, TOKEN } from './mock-under-test.js';

export function corpusSpec(name: string, file = 'openapi.yaml'): string {
  return fileURLToPath(new URL(`../../fixtures/specs/${name}/${file}`, import.meta.url));
}

export interface Reply {
  method: string;
  status: number;
  /** Lower-case names, as the judge reads them. */
  headers: Record<string, string>;
  mediaType: string;
  text: string;
  json: any;
}

/**
 * One request over node:http rather than fetch: these tests send thousands, and fetch's own work was
 * about four times node:http's per request (its streams and Headers), in the tests' own process.
 */
export function call(mock: MockServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const sent = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (sent !== undefined) Object.assign(headers, { 'content-type': contentType, 'content-length': String(sent.length) });
  return new Promise((resolve, fail) => {
    const req = request(mock.url + path, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        // As fetch's Headers show them: repeated fields joined with ", ".
        const answered: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) answered[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ method, status: response.statusCode ?? 0, headers: answered, mediaType: mediaEssence(answered['content-type'] ?? ''), text, json: jsonOrUndefined(text) });
      });
    });
    req.on('error', fail);
    req.end(sent);
  });
}

/**
 * Asserts the answer is `status`, and that the one judge (openapi/judge/, what --self-check runs)
 * finds nothing in it: a status the operation declares, a declared media type, the headers it
 * requires, its body valid (read exactly, no repeated names, no writeOnly property). Returns its JSON.
 */
export function expectDeclared(mock: MockServer, operationId: string, reply: Reply, status: number): any {
  expect(reply.status, `${operationId}: ${reply.text}`).toBe(status);
  const operation = mock.engine.contract.operations.get(operationId);
  expect(operation, operationId).toBeDefined();
  const violations = judgeResponse(operation as ContractOperation, { method: reply.method, status: reply.status, headers: reply.headers, body: reply.text, by: 'the mock' }, 'all');
  expect(
    violations.map((violation) => violation.message),
    `${operationId} ${status}: ${reply.text}`,
  ).toEqual([]);
  return reply.json;
}
