/**
 * Corners of HTTP/1.1 the mock must answer like any origin server, in the spec's Error shape and
 * with CORS (issue 13, item 10). Raw sockets where fetch cannot express the request.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { answersOf, rawExchange, rawRequest } from './raw-http.js';
import { createPlant, expectError, freshId, listedPlantsText, send, TOKEN, useMock } from './mock-under-test.js';

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };
const origin = { origin: 'http://localhost:5173' };

/** The single answer of an exchange, checked to be `status` in the Error shape; returns it. */
function onlyAnswer(text: string, status: number) {
  const answers = answersOf(text);
  expect(
    answers.map((answer) => answer.status),
    text,
  ).toEqual([status]);
  const answer = answers[0] as (typeof answers)[number];
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  return { ...answer, message: body.message as string };
}

describe('protocol corners', () => {
  const mock = useMock({ maxBody: 1000 });

  it('accepts an absolute-form target (RFC 9112 §3.2.2) like its origin-form', async () => {
    const id = freshId();
    const { port } = new URL(mock.current.url);
    const request = rawRequest(`http://127.0.0.1:${port}/plants`, { headers: json, body: `{"id":${id},"name":"Absolute"}` });
    const { text } = await rawExchange(mock.current.url, [request], { until: (t) => t.includes('}') });
    expect(answersOf(text)[0]?.status, text).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Absolute"}`);
  });

  it('answers CONNECT (the mock is not a proxy) instead of dropping the connection', async () => {
    const { port } = new URL(mock.current.url);
    const { text, closedByServer } = await rawExchange(mock.current.url, [`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://localhost:5173\r\n\r\n`]);
    const answer = onlyAnswer(text, 501);
    expect(answer.message).toContain('CONNECT');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(closedByServer).toBe(true);
  });

  it('answers a request without Host with a 400 in the Error shape, with CORS', async () => {
    const request = rawRequest('/plants', { host: null, headers: { ...json, ...origin }, body: '{"id":1,"name":"x"}' });
    const { text } = await rawExchange(mock.current.url, [request], { until: (t) => t.includes('}') });
    const answer = onlyAnswer(text, 400);
    expect(answer.message).toContain('Host');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers an unknown Expect with a 417 in the Error shape, with CORS', async () => {
    const request = rawRequest('/plants', { headers: { ...json, ...origin, expect: 'teapot' }, body: '{"id":1,"name":"x"}' });
    const { text } = await rawExchange(mock.current.url, [request], { until: (t) => t.includes('}') });
    const answer = onlyAnswer(text, 417);
    expect(answer.message).toContain('Expect');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it.each(['gzip', 'br', 'deflate, gzip'])('answers a body with Content-Encoding: %s with a 415 naming Content-Encoding', async (coding) => {
    const response = await fetch(`${mock.current.url}/plants`, {
      method: 'POST',
      headers: { ...json, 'content-encoding': coding },
      body: gzipSync('{"id":1,"name":"x"}'),
    });
    const message = expectError({ status: response.status, headers: response.headers, text: '', json: await response.json() }, 415);
    expect(message).toContain('Content-Encoding');
    expect(response.headers.get('accept-encoding')).toBe('identity');
  });

  it('accepts Content-Encoding: identity', async () => {
    const response = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { 'content-encoding': 'identity' } });
    expect(response.status).toBe(200);
  });

  it('answers a request with no body and no Content-Type with 400 "the body is required"', async () => {
    const message = expectError(await send(mock.current, '/plants', undefined, { contentType: null }), 400);
    expect(message).toContain('the body is required');
  });

  it('still answers 415 for a body without Content-Type', async () => {
    expectError(await send(mock.current, '/plants', '{"id":1,"name":"x"}', { contentType: null }), 415);
  });
});

describe('Expect: 100-continue', () => {
  const mock = useMock({ maxBody: 1000, tokens: [TOKEN] });
  const expecting = (headers: Record<string, string>, length: number) => rawRequest('/plants', { headers: { ...headers, expect: '100-continue', 'content-length': String(length) } });

  it('sends 100 Continue, then reads the body and answers 200', async () => {
    const id = freshId();
    const body = `{"id":${id},"name":"Continued"}`;
    const { text } = await rawExchange(mock.current.url, [expecting(json, body.length)], {
      until: (t) => t.includes('100 Continue') || t.includes('}'),
    });
    expect(answersOf(text).map((answer) => answer.status)).toEqual([100]);
    const rest = await rawExchange(mock.current.url, [expecting(json, body.length), body], { pauseMs: 100, until: (t) => t.includes('}') });
    expect(answersOf(rest.text).map((answer) => answer.status)).toEqual([100, 200]);
  });

  it.each([
    ['the 401 of a missing token', { 'content-type': 'application/json' }, 100, 401],
    ['the 401 of a rejected token', { authorization: 'Bearer wrong', 'content-type': 'application/json' }, 100, 401],
    ['the 413 of a body over --max-body', json, 5000, 413],
    ['the 415 of a wrong media type', { ...auth, 'content-type': 'text/plain' }, 100, 415],
  ])('never sends 100 Continue before %s', async (_name, headers, length, status) => {
    const { text } = await rawExchange(mock.current.url, [expecting(headers, length)], { until: (t) => t.includes('}') });
    expect(
      answersOf(text).map((answer) => answer.status),
      text,
    ).toEqual([status]);
  });
});
