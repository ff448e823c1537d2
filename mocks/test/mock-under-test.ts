/** Starts the stateful mock in-process on port 0 for a test file, and speaks to it over HTTP. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { createMockServer, type MockOptions, type MockServer } from '../server.js';

export const TOKEN = 'test-token';

/** A mock started before the file's tests and closed after them. */
export function useMock(options: MockOptions = {}): { readonly current: MockServer } {
  const holder = {} as { current: MockServer };
  beforeAll(async () => {
    holder.current = await createMockServer({ port: 0, logLevel: 'silent', ...options });
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/**
 * A mock serving a spec written in the test file: `spec` is the document's text (YAML, or JSON) or
 * the document itself (written as JSON). Before the file's tests it is written to a temp folder of
 * its own (`specFile`, for a test that reads the contract) and a mock started on it; after them the
 * mock is closed and the folder removed.
 */
export function useMockForSpec(spec: string | object, options: Omit<MockOptions, 'spec'> = {}): { readonly current: MockServer; readonly specFile: string } {
  const holder = {} as { current: MockServer; specFile: string };
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mock-spec-'));
    holder.specFile = join(dir, typeof spec === 'string' ? 'openapi.yaml' : 'openapi.json');
    writeFileSync(holder.specFile, typeof spec === 'string' ? spec : JSON.stringify(spec));
    holder.current = await createMockServer({ port: 0, logLevel: 'silent', ...options, spec: holder.specFile });
  });
  afterAll(async () => {
    await holder.current?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return holder;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** Omit the default bearer token. */
  noAuth?: boolean;
  contentType?: string | null;
  method?: string;
}

/** Sends `body` (text as is; anything else as JSON) to `path`, with a bearer token and JSON content type by default. */
export async function send(
  mock: MockServer,
  path: string,
  body: unknown,
  { headers = {}, noAuth = false, contentType = 'application/json', method = 'POST' }: PostOptions = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const allHeaders: Record<string, string> = { ...headers };
  if (!noAuth && !('authorization' in allHeaders)) allHeaders.authorization = `Bearer ${TOKEN}`;
  if (contentType !== null) allHeaders['content-type'] = contentType;
  const answer = await requestOverHttp(mock.url + path, method, allHeaders, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  const answered = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answered.append(name, one);
  return { status: answer.status, headers: answered, text: answer.text, json: jsonOrUndefined(answer.text) };
}

/**
 * One request over node:http rather than fetch: the tests send tens of thousands, and fetch's own work
 * is about four times node:http's per request (docs/benchmarks.md, "Where the CPU goes per file").
 * The headers as node:http reads them (lower-case names), the body as text.
 */
export function requestOverHttp(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const sent = body === undefined ? undefined : Buffer.from(body);
  return new Promise((resolve, fail) => {
    const req = request(url, { method, headers: sent === undefined ? headers : { ...headers, 'content-length': String(sent.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    req.end(sent);
  });
}

/** An answer's body parsed, or undefined where it is empty or not JSON (a test then asserts on the text). */
export function jsonOrUndefined(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** GET `path` with no body (a bearer token by default). */
export const sendGet = (mock: MockServer, path: string, options: Omit<PostOptions, 'method' | 'contentType'> = {}) => send(mock, path, undefined, { ...options, method: 'GET', contentType: null });

/** POST /plants. */
export const createPlant = (mock: MockServer, body: unknown, options?: PostOptions) => send(mock, '/plants', body, options);

/** GET /__mock/plants as raw text (ids are exact there, JSON.parse would round them). */
export async function listedPlantsText(mock: MockServer, headers: Record<string, string> = {}): Promise<string> {
  return (await fetch(`${mock.url}/__mock/plants`, { headers })).text();
}

let nextId = Date.now() * 1000;
/** An id no other test in this process used. */
export const freshId = (): number => nextId++;

const bundled = loadContract();
const isSpecError = bundled.componentValidator('Error');
const isSpecPlant = bundled.componentValidator('Plant');

/** Asserts an answer is `status` with exactly the spec's Error shape, `error` equal to the status. */
export function expectError(response: { status: number; headers: Headers; json: any; text: string }, status: number): string {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(isSpecError(response.json), JSON.stringify(isSpecError.errors)).toBe(true);
  expect(Object.keys(response.json).sort()).toEqual(['error', 'message']);
  expect(response.json.error).toBe(status);
  expect(response.json.message.length).toBeGreaterThan(10);
  return response.json.message as string;
}

/** Asserts a 200 whose body is exactly the declared Plant for `sent`. */
export function expectPlant(response: { status: number; json: any; text: string }, sent: { name: string; tag?: string }): void {
  expect(response.status, response.text).toBe(200);
  expect(isSpecPlant(response.json)).toBe(true);
  expect(response.json).toStrictEqual(sent.tag === undefined ? { name: sent.name } : { name: sent.name, tag: sent.tag });
}
