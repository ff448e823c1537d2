/**
 * `--proxy`: the mock in front of local providers over real HTTP — a correct one (answers pass
 * byte for byte, no violations) and ones that break the spec, hang or drop the connection —
 * with the verdicts checked where a developer reads them: the plant-store-violations header and
 * the journal.
 */
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../openapi/operations/compile.js';
import { entrySize, type JournalEntry, type JournalPage } from '../../admin/journal.js';
import { createMockServer, type MockServer } from '../../server.js';
import type { ProxyOptions } from '../proxy.js';
import type { Violation } from '../../../openapi/judge/violation.js';
import { answerJson, closedPort, exchange, JSON_AUTH, startProvider, startSilentServer, type Provider, type RawAnswer } from './providers.js';

const isSpecError = loadContract().componentValidator('Error');

const mocks: MockServer[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

/** The mock in proxy mode in front of `upstream`. */
async function proxyTo(upstream: string, options: Partial<ProxyOptions> & { maxBody?: number; corsOrigins?: string[]; spec?: string } = {}): Promise<MockServer> {
  const { maxBody, corsOrigins, spec, ...proxy } = options;
  const mock = await createMockServer({ port: 0, logLevel: 'silent', maxBody, corsOrigins, spec, proxy: { upstream, ...proxy } });
  mocks.push(mock);
  return mock;
}

const violationsOf = (answer: RawAnswer): Violation[] => JSON.parse(String(answer.headers['plant-store-violations']));
// The in-memory journal answers synchronously.
const journalEntries = (mock: MockServer): JournalEntry[] => (mock.journal.entries() as JournalPage).entries;
const lastEntry = (mock: MockServer): JournalEntry => journalEntries(mock)[0] as JournalEntry;
const codes = (violations: readonly Violation[] | undefined): string[] => (violations ?? []).map((v) => `${v.in} ${v.severity} ${v.code}`);

/** Asserts an answer is the spec's Error with `status`; returns its message. */
function expectErrorAnswer(answer: RawAnswer, status: number): string {
  expect(answer.status, answer.body.toString()).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json\b/);
  const body = JSON.parse(answer.body.toString());
  expect(isSpecError(body)).toBe(true);
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  return body.message as string;
}

describe('a correct provider', () => {
  it('gets the request and gives its answer byte for byte, path prefix and query kept, with no violations', async () => {
    const provider = await startProvider(answerJson(200, '{ "name" : "Monstera",\n  "tag":"tropical" }', { 'x-request-id': 'r-1', 'set-cookie': ['a=1; Path=/', 'b=2'], 'cache-control': 'no-store' }));
    const mock = await proxyTo(`${provider.url}/v1/`);
    const sent = '{"id": 9223372036854775807,  "name":"Monstera", "tag":"tropical"}';
    const answer = await exchange(`${mock.url}/plants?dry=1&x=%20y`, { headers: JSON_AUTH, body: sent });

    const received = provider.received.at(-1)!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/v1/plants?dry=1&x=%20y');
    expect(received.body.toString()).toBe(sent);
    expect(received.headers.authorization).toBe('Bearer test-token');

    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{ "name" : "Monstera",\n  "tag":"tropical" }');
    expect(answer.headers['x-request-id']).toBe('r-1');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2']);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(violationsOf(answer)).toEqual([]);

    const entry = lastEntry(mock);
    expect(entry).toMatchObject({ method: 'POST', path: '/plants', status: 200, operationId: 'createPlant' });
    expect(entry.violations).toEqual([]);
  });

  it('keeps ids beyond 2^53 exact both ways (the bytes are never parsed into doubles and written again)', async () => {
    const answered = '{"name":"Ficus","id":9007199254740993,"ids":[-9223372036854775808,9223372036854775807]}';
    const provider = await startProvider(answerJson(200, answered));
    const mock = await proxyTo(provider.url);
    const sent = '{"id":9007199254740993,"name":"Ficus"}';
    const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: sent });
    expect(provider.received.at(-1)!.body.toString()).toBe(sent);
    expect(answer.body.toString()).toBe(answered);
    // What a proxy that parses and re-serializes would have sent: the id rounded to its double.
    expect(JSON.stringify(JSON.parse(sent))).toContain('9007199254740992');
    expect(violationsOf(answer)).toEqual([]);
  });

  it("removes hop-by-hop fields both ways (RFC 9110 §7.6.1), adds Via and Forwarded, and puts the mock's CORS in place of the upstream's", async () => {
    const provider = await startProvider(
      answerJson(200, '{"name":"x"}', {
        connection: 'x-upstream-hop',
        'x-upstream-hop': 'secret',
        'proxy-authenticate': 'Basic realm="proxy"',
        'access-control-allow-origin': 'https://staging.example',
        vary: 'Accept-Encoding',
      }),
    );
    const mock = await proxyTo(provider.url, { corsOrigins: ['https://app.example'] });
    const answer = await exchange(`${mock.url}/plants`, {
      headers: { ...JSON_AUTH, connection: 'keep-alive, x-client-hop', 'x-client-hop': '1', te: 'trailers', 'proxy-authorization': 'Basic eDp5', origin: 'https://app.example', via: '1.0 corp-proxy' },
      body: '{"id":1,"name":"x"}',
    });
    const received = provider.received.at(-1)!.headers;
    expect(received['x-client-hop']).toBeUndefined();
    expect(received.te).toBeUndefined();
    expect(received['proxy-authorization']).toBeUndefined();
    expect(received.via).toMatch(/^1\.0 corp-proxy, 1\.1 plant-store-mock-[0-9a-f]{8}$/);
    expect(received.forwarded).toMatch(/^for=127\.0\.0\.1;proto=http;host="127\.0\.0\.1:\d+"$/);
    expect(received.host).toBe(new URL(provider.url).host);

    expect(answer.headers['x-upstream-hop']).toBeUndefined();
    expect(answer.headers['proxy-authenticate']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(answer.headers.vary).toBe('Accept-Encoding, Origin');
    expect(String(answer.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['plant-store-violations', 'www-authenticate']));
  });

  it('passes an answer larger than the bound through whole, unvalidated, and says so', async () => {
    const big = `{"name":"${'x'.repeat(3000)}"}`;
    const provider = await startProvider(answerJson(200, big));
    const mock = await proxyTo(provider.url, { maxBody: 1000 });
    const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":1,"name":"x"}' });
    expect(answer.body.toString()).toBe(big);
    expect(codes(violationsOf(answer))).toEqual(['response warning NOT_VALIDATED']);
    expect(violationsOf(answer)[0]?.message).toContain('larger than 1000 bytes');

    // Without a Content-Length: read up to the bound, then the rest streamed after it.
    provider.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // The rest once the first part has left for the mock (written to the socket): two writes, no sleep.
      res.write(big.slice(0, 700), () => res.end(big.slice(700)));
    });
    const chunked = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":2,"name":"x"}' });
    expect(chunked.complete).toBe(true);
    expect(chunked.body.toString()).toBe(big);
    expect(codes(violationsOf(chunked))).toEqual(['response warning NOT_VALIDATED']);
  });

  it('forwards a request body larger than the bound whole and says it was not checked', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url, { maxBody: 100 });
    const body = `{"id":1,"name":"${'y'.repeat(500)}"}`;
    const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body });
    expect(provider.received.at(-1)!.body.toString()).toBe(body);
    expect(answer.status).toBe(200);
    expect(codes(violationsOf(answer))).toEqual(['request warning NOT_VALIDATED']);
  });

  it('judges a compressed answer on its decoded bytes and passes the compressed bytes on', async () => {
    const gzipped = gzipSync('{"name":5}');
    const provider = await startProvider(answerJson(200, gzipped, { 'content-encoding': 'gzip' }));
    const mock = await proxyTo(provider.url);
    const answer = await exchange(`${mock.url}/plants`, { headers: { ...JSON_AUTH, 'accept-encoding': 'gzip' }, body: '{"id":1,"name":"x"}' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.body.equals(gzipped)).toBe(true);
    expect(violationsOf(answer)[0]?.message).toContain('name must be a string, got the number 5');
  });

  it("drops a 204's Content-Length, which a 204 must not carry (RFC 9110 §8.6), and keeps a 304's (the length of what is cached)", async () => {
    const provider = await startProvider((_req, res) => {
      res.writeHead(204, { 'content-length': '5', 'x-request-id': 'r-2' });
      res.end();
    });
    const mock = await proxyTo(provider.url);
    const noContent = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"name":"Monstera"}' });
    expect(noContent.status).toBe(204);
    expect(noContent.headers['x-request-id']).toBe('r-2');
    expect(noContent.headers).not.toHaveProperty('content-length');

    provider.answer((_req, res) => {
      res.writeHead(304, { 'content-length': '57', etag: '"v1"' });
      res.end();
    });
    const notModified = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"name":"Monstera"}' });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['content-length']).toBe('57');
  });

  it('answers HEAD with the upstream fields and no body', async () => {
    const provider = await startProvider((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1234' });
      res.end();
    });
    const mock = await proxyTo(provider.url);
    const answer = await exchange(`${mock.url}/plants`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('1234');
    expect(answer.body.length).toBe(0);
    expect(codes(lastEntry(mock).violations)).toEqual(['request error METHOD_NOT_ALLOWED']);
  });
});

describe('providers that break the spec', () => {
  let provider: Provider;
  let mock: MockServer;
  const create = (body = '{"id":1,"name":"Monstera"}'): Promise<RawAnswer> => exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body });

  it.each([
    ['a field of the wrong type', 200, '{"name":5,"tag":true}', 'application/json', 'UPSTREAM_INVALID_BODY', ['name must be a string, got the number 5', 'tag must be a string, got true']],
    ['an Error without message', 400, '{"error":400}', 'application/json', 'UPSTREAM_INVALID_BODY', ['message is required']],
    ['an Error whose error is not an int32', 400, '{"error":4294967296,"message":"x"}', 'application/json', 'UPSTREAM_INVALID_BODY', ['error must be an integer from -2147483648 to 2147483647']],
    ['another media type', 200, 'Monstera', 'text/plain', 'UPSTREAM_MEDIA_TYPE', undefined],
    ['malformed JSON', 200, '{"name":', 'application/json', 'UPSTREAM_MALFORMED_BODY', undefined],
    ['an undeclared 500', 500, '{"error":500,"message":"boom"}', 'application/json', 'UPSTREAM_UNDECLARED_STATUS', undefined],
  ])('passes %s through unchanged and reports it', async (_what, status, text, type, code, problems) => {
    provider = await startProvider(answerJson(status, text, { 'content-type': type }));
    mock = await proxyTo(provider.url);
    const answer = await create();
    expect(answer.status).toBe(status);
    expect(answer.body.toString()).toBe(text);
    const [found, ...rest] = violationsOf(answer);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ in: 'response', severity: 'error', code });
    expect(found?.message).toContain(`${status}`);
    const entry = lastEntry(mock);
    expect(entry.status).toBe(status);
    expect(codes(entry.violations)).toEqual([`response error ${code}`]);
    if (problems) expect(entry.violations?.[0]?.problems).toEqual(problems);
  });

  it('reports an undeclared 4xx as a warning only (the spec leaves error statuses unsaid)', async () => {
    provider = await startProvider(answerJson(401, '{"error":401,"message":"who are you"}', { 'www-authenticate': 'Bearer realm="staging"' }));
    mock = await proxyTo(provider.url);
    const answer = await create();
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="staging"');
    expect(codes(violationsOf(answer))).toEqual(['response warning UPSTREAM_UNDECLARED_STATUS']);
  });

  it('answers 504 in the Error shape when the upstream never answers within --proxy-timeout', async () => {
    provider = await startProvider(() => undefined);
    mock = await proxyTo(provider.url, { timeoutMs: 300 });
    const answer = await create();
    expect(expectErrorAnswer(answer, 504)).toContain('did not answer completely within 300 ms (--proxy-timeout)');
    expect(provider.received).toHaveLength(1);
    expect(lastEntry(mock)).toMatchObject({ status: 504, code: 'UPSTREAM_TIMEOUT' });
  });

  it('answers 504 when the upstream stalls in the middle of a body it was sending', async () => {
    provider = await startProvider((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"name":"Mon');
    });
    mock = await proxyTo(provider.url, { timeoutMs: 300 });
    expectErrorAnswer(await create(), 504);
  });

  it('cuts the connection, and journals why, when a streamed body stalls after its head was passed on', async () => {
    provider = await startProvider((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('the first bytes');
    });
    mock = await proxyTo(provider.url, { timeoutMs: 300 });
    const answer = await create();
    expect(answer.status).toBe(200);
    expect(answer.complete).toBe(false);
    expect(answer.body.toString()).toBe('the first bytes');
    await expect.poll(() => codes(lastEntry(mock)?.violations)).toContain('response error UPSTREAM_TIMEOUT');
  });

  it('answers 502 when the upstream drops the connection without answering', async () => {
    provider = await startProvider((req) => req.socket.destroy());
    mock = await proxyTo(provider.url);
    const message = expectErrorAnswer(await create(), 502);
    expect(message).toContain('the connection was closed without a complete answer');
    expect(lastEntry(mock)).toMatchObject({ status: 502, code: 'UPSTREAM_FAILED' });
  });

  it('answers 502 when the upstream drops the connection in the middle of the body', async () => {
    provider = await startProvider((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"name":"Mon', () => req.socket.destroy());
    });
    mock = await proxyTo(provider.url);
    expectErrorAnswer(await create(), 502);
  });

  it('answers 502 naming the cause when the connection is refused', async () => {
    mock = await proxyTo(`http://127.0.0.1:${await closedPort()}`);
    expect(expectErrorAnswer(await create(), 502)).toContain('the connection was refused (ECONNREFUSED');
  });

  it('answers 502 when the host name does not resolve', async () => {
    mock = await proxyTo('http://plant-store.invalid', { connectTimeoutMs: 15_000 });
    expect(expectErrorAnswer(await create(), 502)).toContain('its host name could not be resolved');
  });

  it('answers 502 when the TLS handshake fails (https:// in front of a plain HTTP provider)', async () => {
    provider = await startProvider();
    mock = await proxyTo(provider.url.replace('http:', 'https:'));
    expect(expectErrorAnswer(await create(), 502)).toContain('the TLS handshake failed');
  });

  it('answers 504 when a new connection is not established within --proxy-connect-timeout (a TLS handshake that never ends)', async () => {
    const silent = await startSilentServer();
    mock = await proxyTo(`https://127.0.0.1:${silent.port}`, { connectTimeoutMs: 200, timeoutMs: 20_000 });
    expect(expectErrorAnswer(await create(), 504)).toContain('did not accept a connection within 200 ms (--proxy-connect-timeout)');
  });

  it('answers 502 at once when --proxy names the mock itself, instead of forwarding to itself without end', async () => {
    const port = await closedPort();
    mock = await createMockServer({ port, logLevel: 'silent', proxy: { upstream: `http://127.0.0.1:${port}` } });
    mocks.push(mock);
    const message = expectErrorAnswer(await create(), 502);
    expect(message).toContain('sent this request back to this mock');
    // One round: the request as it came back was refused, and that 502 passed back out as the upstream's answer.
    const entries = journalEntries(mock);
    expect(entries.map((entry) => `${entry.status} ${entry.code ?? 'forwarded'}`)).toEqual(['502 forwarded', '502 PROXY_LOOP']);
    expect(codes(entries[0]?.violations)).toEqual(['response error UPSTREAM_UNDECLARED_STATUS']);
  });

  it('keeps serving after every kind of upstream failure', async () => {
    provider = await startProvider();
    mock = await proxyTo(provider.url);
    expect((await create()).status).toBe(200);
    expect((await exchange(`${mock.url}/__mock/health`, { method: 'GET' })).status).toBe(200);
  });
});

describe('a status the spec declares by range or by default', () => {
  // status-ranges-3.1: listNotes declares 200, 404 (NotFound), 4XX (ApiError) and 5xx (text); listTags 200 and default (ApiError).
  const spec = fileURLToPath(new URL('./specs/status-ranges-3.1.yaml', import.meta.url));
  const API_ERROR = '{"errors":[{"msg":"no"}]}';

  it.each([
    ['a 400 by its 4XX range', '/notes', 400, API_ERROR, 'application/json', []],
    ['a 400 breaking the ApiError of its 4XX range', '/notes', 400, '{"message":"no"}', 'application/json', ['response error UPSTREAM_INVALID_BODY']],
    ['a 404 by its exact status before the range', '/notes', 404, '{"detail":"none"}', 'application/json', []],
    ["a 404 in the range's ApiError, not its own NotFound", '/notes', 404, API_ERROR, 'application/json', ['response error UPSTREAM_INVALID_BODY']],
    ['a 503 by a lower-case 5xx range', '/notes', 503, 'down', 'text/plain', []],
    ['a 503 in a media type its 5xx range does not declare', '/notes', 503, API_ERROR, 'application/json', ['response error UPSTREAM_MEDIA_TYPE']],
    ['a 418 by default', '/tags', 418, API_ERROR, 'application/json', []],
    ['a 418 breaking the ApiError of default', '/tags', 418, '{}', 'application/json', ['response error UPSTREAM_INVALID_BODY']],
  ])('judges %s (QA item 8)', async (_what, path, status, text, type, expected) => {
    const provider = await startProvider(answerJson(status, text, { 'content-type': type }));
    const mock = await proxyTo(provider.url, { spec });
    const answer = await exchange(`${mock.url}${path}`, { method: 'GET' });
    expect(answer.status).toBe(status);
    expect(answer.body.toString()).toBe(text);
    expect(codes(violationsOf(answer))).toEqual(expected);
  });

  it('names the ranges among the declared statuses when a status is none of them', async () => {
    const provider = await startProvider(answerJson(302, '', { location: '/elsewhere' }));
    const mock = await proxyTo(provider.url, { spec });
    const [found] = violationsOf(await exchange(`${mock.url}/notes`, { method: 'GET' }));
    expect(found).toMatchObject({ severity: 'error', code: 'UPSTREAM_UNDECLARED_STATUS' });
    expect(found?.message).toContain('(declared: 200, 404, 4XX, 5XX)');
  });

  it("judges a HEAD at a path with a GET as that GET, as the mock answers it (RFC 9110 §9.3.2): no METHOD_NOT_ALLOWED, the GET's statuses", async () => {
    const provider = await startProvider((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '9' });
      res.end();
    });
    const mock = await proxyTo(provider.url, { spec });
    const answer = await exchange(`${mock.url}/notes`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('9');
    expect(violationsOf(answer)).toEqual([]);
    expect(lastEntry(mock)).toMatchObject({ method: 'HEAD', operationId: 'listNotes', violations: [] });

    provider.answer(answerJson(302, '', { location: '/elsewhere' }));
    const [found, ...rest] = violationsOf(await exchange(`${mock.url}/notes`, { method: 'HEAD' }));
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ in: 'response', severity: 'error', code: 'UPSTREAM_UNDECLARED_STATUS' });
    expect(found?.message).toContain('listNotes (GET /notes)');
  });
});

describe('headers the spec declares for a status', () => {
  // response-headers-3.1: listNotes' 200 requires X-Total-Count (an integer ≥ 0) and may carry X-Page-Tags (new, old, pinned); its 4XX requires Retry-After.
  const spec = fileURLToPath(new URL('./specs/response-headers-3.1.yaml', import.meta.url));

  it.each([
    ['every declared header right', 200, { 'x-total-count': '3', 'x-page-tags': 'new,pinned' }, []],
    ['them in its own letter case, spaced after a comma, beside its own (Content-Type never judged)', 200, { 'X-TOTAL-COUNT': '0', 'X-Page-Tags': 'old, new', 'x-served-by': 'notes-1' }, []],
    ['a 200 without its required X-Total-Count', 200, { 'x-page-tags': 'new' }, ['response error UPSTREAM_MISSING_HEADER']],
    ['an X-Total-Count that is no integer', 200, { 'x-total-count': 'many' }, ['response error UPSTREAM_INVALID_HEADER']],
    ['an X-Total-Count under its minimum', 200, { 'x-total-count': '-1' }, ['response error UPSTREAM_INVALID_HEADER']],
    ['an optional X-Page-Tags with a tag its enum lacks', 200, { 'x-total-count': '2', 'x-page-tags': 'new,archived' }, ['response error UPSTREAM_INVALID_HEADER']],
    ['a 429 by its 4XX range, with Retry-After', 429, { 'retry-after': '30' }, []],
    ['a 429 by its 4XX range, without Retry-After (a $ref to components)', 429, {}, ['response error UPSTREAM_MISSING_HEADER']],
  ])('judges %s', async (_what, status, headers, expected) => {
    const text = status === 200 ? '["a"]' : '{}';
    const provider = await startProvider(answerJson(status, text, headers));
    const mock = await proxyTo(provider.url, { spec });
    const answer = await exchange(`${mock.url}/notes`, { method: 'GET' });
    expect(answer.status).toBe(status);
    expect(answer.body.toString()).toBe(text);
    for (const [name, value] of Object.entries(headers)) expect(answer.headers[name.toLowerCase()]).toBe(value);
    expect(codes(violationsOf(answer))).toEqual(expected);
    expect(codes(lastEntry(mock).violations)).toEqual(expected);
  });

  it('names the header, quotes its value and says what its schema refuses; --proxy-strict replaces the answer', async () => {
    const provider = await startProvider(answerJson(200, '["a"]', { 'x-total-count': 'many' }));
    const mock = await proxyTo(provider.url, { spec });
    const [invalid] = violationsOf(await exchange(`${mock.url}/notes`, { method: 'GET' }));
    expect(invalid?.message).toBe(
      `The upstream's 200 answer to listNotes (GET /notes) has the 'x-total-count' header "many", which the spec's schema for it refuses: the value must be a JSON integer, got the string "many".`,
    );
    provider.answer(answerJson(429, '{}'));
    const [missing] = violationsOf(await exchange(`${mock.url}/notes`, { method: 'GET' }));
    expect(missing?.message).toBe(`The upstream's 429 answer to listNotes (GET /notes) has no 'retry-after' header; the spec marks it required for 429.`);
    const strict = await proxyTo(provider.url, { spec, strict: true });
    const replaced = await exchange(`${strict.url}/notes`, { method: 'GET' });
    expect(replaced.status).toBe(502);
    expect(replaced.body.toString()).toContain("has no 'retry-after' header");
    expect(codes(violationsOf(replaced))).toEqual(['response error UPSTREAM_MISSING_HEADER']);
  });
});

describe('--proxy-strict', () => {
  it('replaces an answer that breaks the spec with a 502 Error naming the violation', async () => {
    const provider = await startProvider(answerJson(400, '{"error":400}'));
    const mock = await proxyTo(provider.url, { strict: true });
    const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":1,"name":"x"}' });
    const message = expectErrorAnswer(answer, 502);
    expect(message).toContain('--proxy-strict');
    expect(message).toContain("The upstream's 400 answer to createPlant (POST /plants) is not a valid Error: message is required");
    expect(provider.received).toHaveLength(1);
    expect(codes(violationsOf(answer))).toEqual(['response error UPSTREAM_INVALID_BODY']);
    expect(lastEntry(mock)).toMatchObject({ status: 502, code: 'UPSTREAM_VIOLATION' });
    expect(codes(lastEntry(mock).violations)).toEqual(['response error UPSTREAM_INVALID_BODY']);
  });

  it('replaces an undeclared 500 and a wrong media type without reading their bodies', async () => {
    const provider = await startProvider(answerJson(500, 'oops', { 'content-type': 'text/plain' }));
    const mock = await proxyTo(provider.url, { strict: true });
    expect(expectErrorAnswer(await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":1,"name":"x"}' }), 502)).toContain('answered createPlant (POST /plants) with 500');
    provider.answer(answerJson(200, 'Monstera', { 'content-type': 'text/plain' }));
    expect(expectErrorAnswer(await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":2,"name":"x"}' }), 502)).toContain("says Content-Type 'text/plain'");
  });

  it('passes correct answers, undeclared 4xx and request violations unchanged', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url, { strict: true });
    const ok = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":1,"name":"x"}' });
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('{"name":"Monstera","tag":"tropical"}');
    provider.answer(answerJson(401, '{"error":401,"message":"no"}'));
    const anonymous = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"x"}' });
    expect(anonymous.status).toBe(401);
    expect(codes(violationsOf(anonymous))).toEqual(['request error MISSING_CREDENTIALS', 'response warning UPSTREAM_UNDECLARED_STATUS']);
  });
});

describe('requests that break the spec', () => {
  it("forwards them and reports every problem: credentials and body judged independently, by the mock's rules", async () => {
    const provider = await startProvider(answerJson(400, '{"error":400,"message":"bad plant"}'));
    const mock = await proxyTo(provider.url);
    const sent = '{"id":"7","name":5}';
    const answer = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json', authorization: 'Basic eDp5' }, body: sent });
    expect(provider.received.at(-1)!.body.toString()).toBe(sent);
    expect(answer.status).toBe(400);
    expect(answer.body.toString()).toBe('{"error":400,"message":"bad plant"}');
    const violations = violationsOf(answer);
    expect(codes(violations)).toEqual(['request error WRONG_AUTH_SCHEME', 'request error INVALID_REQUEST_BODY']);
    expect(violations[1]?.message).toContain('id must be an integer');
    expect(violations[1]?.message).toContain('name must be a string, got the number 5');
    expect(lastEntry(mock).violations?.[1]?.problems).toEqual(['name must be a string, got the number 5', 'id must be an integer, got the string "7"']);
  });

  it.each([
    ['a body that is not JSON', { 'content-type': 'application/json' }, '{"id":1,', 'MALFORMED_JSON'],
    ['another media type', { 'content-type': 'text/plain' }, '{"id":1,"name":"x"}', 'UNSUPPORTED_MEDIA_TYPE'],
    ['an id beyond int64', { 'content-type': 'application/json' }, '{"id":9223372036854775808,"name":"x"}', 'INVALID_REQUEST_BODY'],
  ])('forwards %s byte for byte and reports it', async (_what, headers, body, code) => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url);
    const answer = await exchange(`${mock.url}/plants`, { headers: { ...headers, authorization: 'Bearer t' }, body });
    expect(provider.received.at(-1)!.body.toString()).toBe(body);
    expect(answer.status).toBe(200);
    expect(codes(violationsOf(answer))).toEqual([`request error ${code}`]);
  });

  it('resolves dot segments before the prefix: /../../admin under --proxy http://host/v1 stays under /v1 (issue 24, degraded)', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(`http://gw:gateway-secret@${new URL(provider.url).host}/v1`);
    const { port } = new URL(mock.url);
    // Sent as written: a URL string would be normalised by the client before it left.
    const rawGet = (path: string): Promise<number> =>
      new Promise((resolve, fail) => {
        const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, method: 'GET', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', fail);
        req.end();
      });
    for (const path of ['/../../admin', '/plants/../../../admin?x=1', '/%2e%2e/%2E%2E/admin', '/./plants/%2e/../admin']) await rawGet(path);
    const paths = provider.received.map((received) => received.url);
    expect(paths.length).toBe(4);
    for (const path of paths) {
      expect(path.startsWith('/v1/'), path).toBe(true);
      expect(path).not.toMatch(/(^|\/)(\.|%2e){1,2}(\/|\?|$)/i);
    }
    expect(paths).toEqual(['/v1/admin', '/v1/admin?x=1', '/v1/admin', '/v1/admin']);
  });

  it("masks the gateway's credentials of --proxy in whatever the upstream echoes of them (issue 24 #4)", async () => {
    // An upstream that quotes the Authorization it got, in a header and in its body.
    const provider = await startProvider((req, res) => {
      const got = String(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': got });
      res.end(JSON.stringify({ name: got, tag: `${got} / gw:s3cret-gateway-pass / s3cret-gateway-pass` }));
    });
    const target = new URL(provider.url);
    const mock = await proxyTo(`http://gw:s3cret-gateway-pass@${target.host}/`);
    for (let i = 0; i < 3; i++) {
      const answer = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"x"}' });
      expect(answer.status).toBe(200);
    }
    expect(provider.received.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('gw:s3cret-gateway-pass').toString('base64')}`);
    const listed = await (await fetch(`${mock.url}/__mock/requests?whole=true&limit=1000`)).text();
    expect(listed).toContain('x-echo');
    expect(listed).not.toContain(Buffer.from('gw:s3cret-gateway-pass').toString('base64'));
    expect(listed).not.toContain('s3cret-gateway-pass');
    const health = await (await fetch(`${mock.url}/__mock/health`)).text();
    expect(health).not.toContain('s3cret-gateway-pass');
  });

  it('masks in the journal a credential the violations quote, and counts them against its byte bound', async () => {
    const provider = await startProvider();
    const adminToken = 'admin-secret-0123456789';
    const mock = await createMockServer({ port: 0, logLevel: 'silent', adminToken, proxy: { upstream: provider.url } });
    mocks.push(mock);
    const answer = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: `{"id":"${adminToken}","name":"x"}` });
    expect(codes(violationsOf(answer))).toEqual(['request error INVALID_REQUEST_BODY']);
    const { entries } = (await (await fetch(`${mock.url}/__mock/requests?limit=1`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as JournalPage;
    const kept = (await (await fetch(`${mock.url}/__mock/requests/${entries[0]?.seq}`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as JournalEntry;
    expect(kept.violations?.[0]?.problems).toEqual(['id must be an integer, got the string "ad…89"']);
    expect(JSON.stringify(kept)).not.toContain(adminToken);
    // What the entry holds of its violations is part of what it costs the journal.
    const record = { ...lastEntry(mock), time: 0 };
    expect(entrySize(record)).toBeGreaterThan(entrySize({ ...record, violations: undefined }) + JSON.stringify(kept.violations).length / 2);
  });

  it('passes the answer on and says the request was not checked when judging it fails (a hook that throws), and keeps serving', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url);
    // The engine's hooks (by name): a validation hook that fails, as a bug in the mock's rules would.
    mock.engine.handlers = {
      ...mock.engine.handlers,
      validationFail: () => {
        throw new TypeError('the hook failed while quoting Bearer sk_live_secret');
      },
    };
    const answer = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"id":"x"}' });
    expect(answer.status).toBe(200);
    const violations = violationsOf(answer);
    expect(codes(violations)).toEqual(['request warning NOT_VALIDATED']);
    expect(violations[0]?.message).toContain('the mock failed while judging it: a TypeError');
    expect(violations[0]?.message).not.toContain('sk_live');
    expect(codes(lastEntry(mock).violations)).toEqual(['request warning NOT_VALIDATED']);
    const again = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"id":1,"name":"x"}' });
    expect(again.status).toBe(200);
    expect(codes(violationsOf(again))).toEqual([]);
  });

  it('forwards paths and methods the spec does not have, saying so (the spec may be what is missing)', async () => {
    const provider = await startProvider(answerJson(200, '[{"name":"x"}]'));
    const mock = await proxyTo(provider.url);
    const unknown = await exchange(`${mock.url}/orders/1`, { method: 'GET' });
    expect(unknown.body.toString()).toBe('[{"name":"x"}]');
    expect(codes(violationsOf(unknown))).toEqual(['request error ROUTE_NOT_FOUND']);
    const list = await exchange(`${mock.url}/plants`, { method: 'GET' });
    expect(list.status).toBe(200);
    expect(violationsOf(list)[0]).toMatchObject({ code: 'METHOD_NOT_ALLOWED', message: 'GET is not allowed on /plants; it accepts POST, OPTIONS.' });
    expect(provider.received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /orders/1', 'GET /plants']);
  });
});

describe("the mock's own answers in front of the proxy", () => {
  it('answers CORS preflights itself, never forwarding them', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url);
    const preflight = { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    const known = await exchange(`${mock.url}/plants`, { method: 'OPTIONS', headers: preflight });
    expect(known.status).toBe(204);
    expect(known.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(known.headers['access-control-allow-origin']).toBe('*');
    const unknown = await exchange(`${mock.url}/orders`, { method: 'OPTIONS', headers: { ...preflight, 'access-control-request-method': 'GET' } });
    expect(unknown.status).toBe(204);
    expect(unknown.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    expect(provider.received).toEqual([]);
  });

  it('forwards an OPTIONS that is not a CORS preflight (no Access-Control-Request-Method): the real service answers it', async () => {
    const provider = await startProvider((_req, res) => {
      res.writeHead(200, { allow: 'POST, OPTIONS, TRACE', 'x-served-by': 'upstream', 'content-length': '0' });
      res.end();
    });
    const mock = await proxyTo(provider.url);
    for (const headers of [{}, { origin: 'https://app.example' }] as Record<string, string>[]) {
      const answer = await exchange(`${mock.url}/plants`, { method: 'OPTIONS', headers });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-served-by']).toBe('upstream');
      expect(answer.headers.allow).toBe('POST, OPTIONS, TRACE');
      expect(violationsOf(answer)).toEqual([]);
    }
    expect(provider.received.map((r) => `${r.method} ${r.url}`)).toEqual(['OPTIONS /plants', 'OPTIONS /plants']);
  });

  it('answers Prefer: code=N itself, as the mock does, and forwards nothing', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url);
    const forced = await exchange(`${mock.url}/plants`, { headers: { ...JSON_AUTH, prefer: 'code=500' }, body: '{"id":1,"name":"x"}' });
    expect(expectErrorAnswer(forced, 500)).toContain("Forced by 'Prefer: code=500'");
    expect(forced.headers['preference-applied']).toBe('code=500');
    const example = await exchange(`${mock.url}/plants`, { headers: { ...JSON_AUTH, prefer: 'code=200' }, body: '{"id":1,"name":"x"}' });
    expect(JSON.parse(example.body.toString())).toEqual({ name: 'Monstera', tag: 'tropical' });
    // A forced answer never hides a real fault in the request.
    const unauthenticated = await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json', prefer: 'code=500' }, body: '{"id":1,"name":"x"}' });
    expect(unauthenticated.status).toBe(401);
    expect(expectErrorAnswer(await exchange(`${mock.url}/plants`, { headers: { ...JSON_AUTH, prefer: 'delay=soon' }, body: '{"id":1,"name":"x"}' }), 400)).toContain('delay=soon');
    expect(provider.received).toEqual([]);
  });

  it('delays a forwarded answer by Prefer: delay', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url);
    const answer = await exchange(`${mock.url}/plants`, { headers: { ...JSON_AUTH, prefer: 'delay=150' }, body: '{"id":1,"name":"x"}' });
    expect(answer.status).toBe(200);
    expect(provider.received).toHaveLength(1);
    expect(lastEntry(mock).durationMs).toBeGreaterThanOrEqual(150);
  });

  it('says proxy mode in /__mock/health and /__mock/spec, the upstream password masked, and keeps no plants', async () => {
    const provider = await startProvider();
    const mock = await proxyTo(provider.url.replace('http://', 'http://deploy:s3cret@') + '/v2');
    const health = await (await fetch(`${mock.url}/__mock/health`)).json();
    expect(health).toEqual({ status: 'ok', replica: expect.any(String), mode: 'proxy', upstream: `${provider.url.replace('http://', 'http://deploy:***@')}/v2`, strict: false });
    // A page of another origin is told the status alone, not where the mock forwards to.
    expect(await (await fetch(`${mock.url}/__mock/health`, { headers: { origin: 'http://evil.example' } })).json()).toEqual({ status: 'ok' });
    const spec = await (await fetch(`${mock.url}/__mock/spec`)).json();
    expect(spec).toMatchObject({ mode: 'proxy', upstream: health.upstream, collections: [] });
    expect(JSON.stringify(spec)).not.toContain('s3cret');
    const plants = await exchange(`${mock.url}/__mock/plants`, { method: 'GET' });
    expect(expectErrorAnswer(plants, 404)).toContain('The mock keeps no records in proxy mode, so /__mock/plants is not served');
    // The URL's credentials go upstream as Basic only when the request brings none.
    await exchange(`${mock.url}/plants`, { headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"x"}' });
    expect(provider.received.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('deploy:s3cret').toString('base64')}`);
    expect(provider.received.at(-1)!.url).toBe('/v2/plants');
  });
});
