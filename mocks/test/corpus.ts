/**
 * For the corpus tests (fixtures/specs/): calls over real HTTP, and the check that an answer is
 * one the operation declares — its status, its media type, its body valid against that schema.
 */
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { mediaEssence } from '../../openapi/media-types.js';
import type { MockServer } from '../server.js';
import { jsonOrUndefined, TOKEN } from './mock-under-test.js';

export function corpusSpec(name: string, file = 'openapi.yaml'): string {
  return fileURLToPath(new URL(`../../fixtures/specs/${name}/${file}`, import.meta.url));
}

export interface Reply {
  status: number;
  mediaType: string;
  text: string;
  json: any;
}

export async function call(mock: MockServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (body !== undefined) headers['content-type'] = contentType;
  const response = await fetch(mock.url + path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, mediaType: mediaEssence(response.headers.get('content-type') ?? ''), text, json: jsonOrUndefined(text) };
}

/** Asserts the answer is `status`, declared by the operation, in a declared media type, its body valid; returns its JSON. */
export function expectDeclared(mock: MockServer, operationId: string, reply: Reply, status: number): any {
  expect(reply.status, `${operationId}: ${reply.text}`).toBe(status);
  const operation = mock.engine.contract.operations.get(operationId);
  expect(operation, operationId).toBeDefined();
  const response = operation?.responses.get(status) ?? operation?.responses.get('default');
  expect(response, `${operationId} declares ${status}`).toBeDefined();
  if (!response?.content.size) {
    expect(reply.text, `${operationId} ${status} declares no body`).toBe('');
    return undefined;
  }
  const media = [...response.content.values()].find((m) => mediaEssence(m.mediaType) === reply.mediaType);
  expect(media?.mediaType, `${operationId} ${status} answered ${reply.mediaType}`).toBeDefined();
  const validate = media?.validate;
  if (validate) expect(validate(reply.json) ? [] : validate.errors, `${operationId} ${status}: ${reply.text}`).toEqual([]);
  return reply.json;
}
