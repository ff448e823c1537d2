/** The request rules as plain functions: bearer credentials, Prefer, media type. */
import { describe, expect, it } from 'vitest';
import { checkBearer } from '../engine/security.js';
import { isRejection } from '../errors.js';
import { forceableStatuses, forceProblem, MAX_DELAY_MS, parsePrefer } from '../engine/prefer.js';
import { checkJsonMediaType } from '../http/request-body.js';

const anyToken = { realm: 'r', tokens: undefined };

describe('checkBearer', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
    ['Bearer a-b.c_d~e+f/g==', 'a-b.c_d~e+f/g=='],
  ])('accepts %j as token %j', (header, token) => {
    expect(checkBearer(header, anyToken)).toBe(token);
  });

  it.each([
    [undefined, 'MISSING_CREDENTIALS'],
    ['', 'MISSING_CREDENTIALS'],
    ['Basic abc', 'WRONG_AUTH_SCHEME'],
    ['Bearerabc', 'WRONG_AUTH_SCHEME'],
    ['Bearer', 'EMPTY_TOKEN'],
    ['Bearer    ', 'EMPTY_TOKEN'],
    ['Bearer a b', 'INVALID_TOKEN'],
    ['Bearer "abc"', 'INVALID_TOKEN'],
    ['Bearer a=b', 'INVALID_TOKEN'],
  ])('rejects %j as %s', (header, code) => {
    const result = checkBearer(header, anyToken);
    expect(isRejection(result) && result.code).toBe(code);
  });

  it('applies an allow-list exactly', () => {
    const policy = { realm: 'r', tokens: new Set(['alpha']) };
    expect(checkBearer('Bearer alpha', policy)).toBe('alpha');
    const rejected = checkBearer('Bearer Alpha', policy);
    expect(isRejection(rejected) && rejected.headers?.['www-authenticate']).toContain('error="invalid_token"');
  });
});

describe('parsePrefer', () => {
  it.each([
    [undefined, {}],
    ['code=500', { code: 500 }],
    ['code="409"', { code: 409 }],
    ['delay=0', { delayMs: 0 }],
    ['code=500, delay=100', { code: 500, delayMs: 100 }],
    ['code=500; delay=100', { code: 500, delayMs: 100 }],
    ['return=minimal, wait=5', {}],
    [`delay=${MAX_DELAY_MS}`, { delayMs: MAX_DELAY_MS }],
  ])('reads %j', (header, expected) => {
    expect(parsePrefer(header)).toEqual(expected);
  });

  it.each(['code=5xx', 'code=99', 'delay=1.5', `delay=${MAX_DELAY_MS + 1}`, 'example='])('explains why %j cannot be honoured', (header) => {
    expect(parsePrefer(header).problem).toContain(header.split('=')[0]);
  });

  it("leaves it to the operation which statuses can be forced: its declared ones and the mock's own rejections", () => {
    const NO_RANGES = { responses: new Map() };
    expect(forceProblem(201, forceableStatuses([200, 400]), NO_RANGES)).toMatch(/code=201 is not a status the mock can force here \(choose one of 200, 400, 401/);
    expect(forceProblem(201, forceableStatuses([201, 400]), NO_RANGES)).toBeUndefined();
    expect(forceProblem(503, forceableStatuses([200]), NO_RANGES)).toBeUndefined();
  });
});

describe('checkJsonMediaType', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset="UTF-8"', 'application/json;charset=utf8'])('accepts %j', (header) =>
    expect(checkJsonMediaType(header)).toBeUndefined(),
  );

  it.each([
    [undefined, 'UNSUPPORTED_MEDIA_TYPE'],
    ['', 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain', 'UNSUPPORTED_MEDIA_TYPE'],
    ['application/json-patch+json', 'UNSUPPORTED_MEDIA_TYPE'],
    ['application/json; charset=utf-16', 'UNSUPPORTED_CHARSET'],
    ['json', 'UNSUPPORTED_MEDIA_TYPE'],
  ])('rejects %j as %s', (header, code) => {
    expect(checkJsonMediaType(header)?.code).toBe(code);
  });
});
