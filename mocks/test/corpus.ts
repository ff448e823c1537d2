/**
 * For the corpus tests (fixtures/specs/): calls over real HTTP, and the check that an answer is
 * one the operation declares, by the one judge.
 */
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { judgeResponse } from '../../openapi/judge/response.js';
import { mediaEssence } from '../../openapi/media-types.js';
import type { ContractOperation } from '../../openapi/operations/model.js';
import type { MockServer } from '../server.js';
import { jsonOrUndefined, requestOverHttp, TOKEN } from './mock-under-test.js';

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

export async function call(mock: MockServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (body !== undefined) headers['content-type'] = contentType;
  const answer = await requestOverHttp(mock.url + path, method, headers, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  // As fetch's Headers show them: repeated fields joined with ", ".
  const answered: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) answered[name] = Array.isArray(value) ? value.join(', ') : value;
  return { method, status: answer.status, headers: answered, mediaType: mediaEssence(answered['content-type'] ?? ''), text: answer.text, json: jsonOrUndefined(answer.text) };
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
