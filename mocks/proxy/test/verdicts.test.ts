/**
 * The proxy's rules as plain functions: judging an answer's head and body against an operation
 * (statuses, wildcard media types, `default`, bodies the spec does not declare), decoding a
 * compressed body within the bound, the violations header's bounds, and failures in words.
 */
import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../../openapi/operations/compile.js';
import { type ContractOperation } from '../../../openapi/operations/model.js';
import { loadContract } from '../../../openapi/operations/compile.js';
import { describeFailure } from '../proxy.js';
import { judgeResponseBody, judgeResponseHead, type ResponseHead } from '../../../openapi/judge/response.js';
import type { Violation } from '../../../openapi/judge/violation.js';
import { decodedForJudging } from '../bodies.js';
import { MAX_VIOLATIONS_HEADER_BYTES, violationsHeader } from '../violations.js';

const createPlant = loadContract().operations.get('createPlant') as ContractOperation;

/** An operation with a `default` response, a wildcard media type and a bodiless 204. */
const variant = compileContract(
  {
    openapi: '3.1.0',
    info: { title: 'Variant', version: '1' },
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
          responses: {
            '200': { description: 'a thing', content: { 'application/*': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } } } } },
            '204': { description: 'nothing' },
            default: { description: 'a problem', content: { 'application/problem+json': { schema: { type: 'object', required: ['title'] } } } },
          },
        },
      },
    },
  },
  'variant.yaml',
).operations.get('getThing') as ContractOperation;

const head = (status: number, contentType: string | undefined, more: Partial<ResponseHead> = {}): ResponseHead => ({
  method: 'POST',
  status,
  contentType,
  contentLength: undefined,
  headers: {},
  ...more,
});

describe('judging the head of an answer', () => {
  it('asks for a body check of a declared JSON answer, charset allowed', () => {
    const verdict = judgeResponseHead(createPlant, head(200, 'application/json; charset=utf-8'));
    expect(verdict.violations).toEqual([]);
    expect(verdict.body?.schema).toBe('Plant');
    expect(judgeResponseHead(createPlant, head(400, 'application/json')).body?.schema).toBe('Error');
  });

  it('tells an undeclared 4xx (a warning) from an undeclared 2xx or 5xx (errors)', () => {
    expect(judgeResponseHead(createPlant, head(409, 'application/json')).violations[0]).toMatchObject({ severity: 'warning', code: 'UPSTREAM_UNDECLARED_STATUS' });
    expect(judgeResponseHead(createPlant, head(201, 'application/json')).violations[0]).toMatchObject({ severity: 'error', code: 'UPSTREAM_UNDECLARED_STATUS' });
    expect(judgeResponseHead(createPlant, head(503, 'text/html')).violations[0]?.message).toBe(
      'The upstream answered createPlant (POST /plants) with 503, a status the spec does not declare for it (declared: 200, 400).',
    );
  });

  it('refuses a missing or malformed Content-Type where the spec declares a body', () => {
    expect(judgeResponseHead(createPlant, head(200, undefined)).violations[0]?.message).toContain('has no Content-Type');
    expect(judgeResponseHead(createPlant, head(200, 'application/')).violations[0]?.code).toBe('UPSTREAM_MEDIA_TYPE');
    expect(judgeResponseHead(createPlant, head(200, 'application/jsonx')).violations[0]?.message).toContain("the spec declares 'application/json'");
  });

  it('matches wildcard media types, uses `default` for other statuses, and expects no body with 204 or to HEAD', () => {
    expect(judgeResponseHead(variant, head(200, 'application/vnd.thing+json')).body).toBeDefined();
    expect(judgeResponseHead(variant, head(200, 'text/plain')).violations[0]?.code).toBe('UPSTREAM_MEDIA_TYPE');
    expect(judgeResponseHead(variant, head(418, 'application/problem+json')).violations).toEqual([]);
    expect(judgeResponseHead(variant, head(204, undefined)).violations).toEqual([]);
    expect(judgeResponseHead(createPlant, head(200, undefined, { method: 'HEAD' })).violations).toEqual([]);
  });

  it('flags a body where the spec declares none, but not an empty one', () => {
    const bodiless = compileContract(
      { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/x': { delete: { operationId: 'drop', responses: { '200': { description: 'gone' } } } } } },
      'x.yaml',
    ).operations.get('drop') as ContractOperation;
    expect(judgeResponseHead(bodiless, head(200, 'application/json')).violations[0]?.code).toBe('UPSTREAM_UNDECLARED_BODY');
    expect(judgeResponseHead(bodiless, head(200, undefined, { contentLength: 0 })).violations).toEqual([]);
  });
});

describe('judging the body of an answer', () => {
  const plant = judgeResponseHead(createPlant, head(200, 'application/json')).body!;

  it('judges integers on their digits, beyond what a double holds', () => {
    const thing = judgeResponseHead(variant, head(200, 'application/json')).body!;
    expect(judgeResponseBody(variant, { status: 200 }, thing, Buffer.from('{"id":9223372036854775807}'))).toEqual([]);
    expect(judgeResponseBody(variant, { status: 200 }, thing, Buffer.from('{"id":9223372036854775808}'))?.[0]?.problems).toEqual([
      'id must be an integer from -9223372036854775808 to 9223372036854775807',
    ]);
  });

  it('judges a body labelled with a type the status does not declare against its JSON schema, when it is JSON', () => {
    const mislabelled = judgeResponseHead(createPlant, head(200, 'text/plain'));
    expect(mislabelled.violations.map((v) => v.code)).toEqual(['UPSTREAM_MEDIA_TYPE']);
    const check = mislabelled.body!;
    expect(judgeResponseBody(createPlant, { status: 200 }, check, Buffer.from('Monstera'))).toBeUndefined();
    expect(judgeResponseBody(createPlant, { status: 200 }, check, Buffer.from('{"name":5}'))?.map((v) => v.code)).toEqual(['UPSTREAM_INVALID_BODY']);
    expect(judgeResponseHead(createPlant, head(200, 'text/plain'), 'first').body).toBeUndefined();
  });

  it('says what is wrong with an empty, non-UTF-8 or malformed body', () => {
    expect(judgeResponseBody(createPlant, { status: 200 }, plant, Buffer.alloc(0))?.[0]?.message).toContain('the body is empty, and the spec declares a Plant');
    expect(judgeResponseBody(createPlant, { status: 200 }, plant, Buffer.from([0x7b, 0xff, 0x7d]))?.[0]?.message).toContain('not UTF-8');
    expect(judgeResponseBody(createPlant, { status: 200 }, plant, Buffer.from('{"name":"x",}'))?.[0]?.code).toBe('UPSTREAM_MALFORMED_BODY');
  });
});

describe('decoding a compressed body to judge it', () => {
  it('undoes gzip and raw deflate, and names codings it cannot undo', () => {
    expect(decodedForJudging(gzipSync('{"name":"x"}'), 'gzip', 1000).toString()).toBe('{"name":"x"}');
    expect(decodedForJudging(deflateRawSync('{"name":"x"}'), 'deflate', 1000).toString()).toBe('{"name":"x"}');
    expect(decodedForJudging(Buffer.from('abc'), 'zstd', 1000)).toBe('it is encoded with zstd, which the proxy cannot decode');
  });

  it('stops at the bound when a small body expands (a compression bomb costs at most the bound)', () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    expect(decodedForJudging(bomb, 'gzip', 1024 * 1024)).toBe('it is larger than 1048576 bytes once decoded (--max-body)');
  });
});

describe('the plant-store-violations header', () => {
  const many = (n: number, message: string): Violation[] => Array.from({ length: n }, (_, i) => ({ in: 'response', severity: 'error', code: 'UPSTREAM_INVALID_BODY', message: `${i}: ${message}` }));

  it('is [] when all is well, and carries each violation otherwise', () => {
    expect(violationsHeader([])).toBe('[]');
    expect(JSON.parse(violationsHeader(many(2, 'x')))).toEqual([
      { in: 'response', severity: 'error', code: 'UPSTREAM_INVALID_BODY', message: '0: x' },
      { in: 'response', severity: 'error', code: 'UPSTREAM_INVALID_BODY', message: '1: x' },
    ]);
  });

  it('stays ASCII and under its bound whatever the messages, cutting long ones and counting those left out', () => {
    const value = violationsHeader(many(60, `name must not be "${'🌿é\u0000'.repeat(400)}"`));
    expect(value.length).toBeLessThanOrEqual(MAX_VIOLATIONS_HEADER_BYTES);
    expect(value).toMatch(/^[\x20-\x7e]*$/);
    const parsed = JSON.parse(value) as ({ message: string } | { more: number })[];
    const more = parsed.at(-1) as { more: number };
    expect(more.more + parsed.length - 1).toBe(60);
    expect((parsed[0] as { message: string }).message).toMatch(/^0: name must not be "🌿é\u0000/);
    expect((parsed[0] as { message: string }).message.endsWith('…')).toBe(true);
  });
});

describe('upstream failures in words', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }, 'the connection was refused'],
    [{ code: 'ECONNRESET', message: 'socket hang up' }, 'the connection was closed without a complete answer'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x.invalid' }, 'its host name could not be resolved'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }, 'the TLS handshake failed'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' }, 'the TLS handshake failed'],
    [{ code: 'HPE_INVALID_CONSTANT', message: 'Expected HTTP/' }, 'its answer is not well-formed HTTP'],
  ])('%j', (error, words) => {
    expect(describeFailure(Object.assign(new Error(error.message), { code: error.code }))).toBe(`${words} (${error.code}: ${error.message})`);
  });
});
