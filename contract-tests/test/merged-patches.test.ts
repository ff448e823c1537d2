/**
 * A PATCH sent as `application/json` with nested objects (Adyen's legal entity API: PATCH
 * /transferInstruments/{id} with a `bankAccount` whose `accountIdentification` is a oneOf of
 * country formats). Before: the mock merged a `seLocal` identification into the stored `auLocal`
 * one (RFC 7396), a mixture no branch accepts, and its projection answered `auLocal` with members
 * the client never wrote (or `{}` without the required ones); and the suite failed a provider that
 * merges a nested object sent into the stored one (a correct reading of a JSON PATCH) because the
 * answer held more than was sent. Now the mock keeps a merged member only where the operation's
 * own schema accepts it, else the one sent, and the suite takes either. Over real HTTP against the
 * mock serving the spec written here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { holdsMergePatch } from '../checks/merge-patch.js';
import { runContractSuite } from '../index.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const local = (type: string, member: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', 'accountNumber', member],
  properties: { type: { type: 'string', enum: [type] }, accountNumber: { type: 'string', minLength: 1, maxLength: 12 }, [member]: { type: 'string', minLength: 1, maxLength: 12 } },
});
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Instruments', version: '1' },
  paths: {
    '/instruments': {
      post: { operationId: 'createInstrument', requestBody: { required: true, content: json(ref('Instrument')) }, responses: { '200': { description: 'made', content: json(ref('Instrument')) } } },
    },
    '/instruments/{id}': {
      get: { operationId: 'getInstrument', parameters: [id], responses: { '200': { description: 'one', content: json(ref('Instrument')) }, '404': { description: 'none' } } },
      patch: {
        operationId: 'patchInstrument',
        parameters: [id],
        requestBody: { required: true, content: json(ref('InstrumentChange')) },
        responses: { '200': { description: 'changed', content: json(ref('Instrument')) }, '404': { description: 'none' } },
      },
    },
  },
  components: {
    schemas: {
      Instrument: { type: 'object', required: ['bankAccount', 'details'], properties: { id: { type: 'string', readOnly: true }, bankAccount: ref('BankAccount'), details: ref('Details') } },
      // A change names the branch always: merged into the stored details, which hold the bank too.
      InstrumentChange: { type: 'object', required: ['details'], properties: { bankAccount: ref('BankAccount'), details: ref('DetailsChange') } },
      BankAccount: {
        type: 'object',
        required: ['accountIdentification'],
        properties: { accountType: { type: 'string', enum: ['checking', 'savings'] }, accountIdentification: { oneOf: [local('auLocal', 'bsbCode'), local('seLocal', 'clearingNumber')] } },
      },
      Details: { type: 'object', required: ['bank'], properties: { bank: { type: 'string', maxLength: 12 }, branch: { type: 'string', maxLength: 12 } } },
      DetailsChange: { type: 'object', required: ['branch'], properties: { branch: { type: 'string', maxLength: 12 } } },
    },
  },
};

describe('a PATCH with nested objects', () => {
  let dir: string;
  let spec: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'merged-patches-'));
    spec = join(dir, 'instruments.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
  });
  afterAll(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${mock.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: answer.status, json: (await answer.json()) as Record<string, any> };
  };

  it('answers the union member sent where merging it into the stored one would fit no branch, and keeps it', async () => {
    const made = await call('POST', '/instruments', {
      bankAccount: { accountType: 'checking', accountIdentification: { type: 'auLocal', accountNumber: '1234', bsbCode: '062000' } },
      details: { bank: 'Westpac' },
    });
    expect(made.status).toBe(200);
    const sent = { type: 'seLocal', accountNumber: '5678', clearingNumber: '8327' };
    const patched = await call('PATCH', `/instruments/${encodeURIComponent(made.json.id)}`, { bankAccount: { accountIdentification: sent }, details: { branch: 'Sydney' } });
    expect(patched.status).toBe(200);
    expect(patched.json.bankAccount.accountIdentification).toEqual(sent);
    expect((await call('GET', `/instruments/${encodeURIComponent(made.json.id)}`)).json.bankAccount.accountIdentification).toEqual(sent);
  });

  it('still merges a nested object where the merge fits (RFC 7396)', async () => {
    const made = await call('POST', '/instruments', { bankAccount: { accountIdentification: { type: 'auLocal', accountNumber: '1', bsbCode: '2' } }, details: { bank: 'Westpac' } });
    const patched = await call('PATCH', `/instruments/${encodeURIComponent(made.json.id)}`, { details: { branch: 'Sydney' } });
    expect(patched.json.details).toEqual({ bank: 'Westpac', branch: 'Sydney' });
  });

  it('the suite passes the mock: a merged nested object holds what was sent', async () => {
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 11, generated: { positive: 2, negative: 1 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a merge holds what was sent; a member changed, dropped or left unremoved does not', () => {
    expect(holdsMergePatch({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(holdsMergePatch({ a: null }, { b: 1 })).toBe(true);
    expect(holdsMergePatch({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(holdsMergePatch({ a: { b: 1 } }, { a: {} })).toBe(false);
    expect(holdsMergePatch({ a: null }, { a: 1 })).toBe(false);
    expect(holdsMergePatch([1], [1, 2])).toBe(false);
    expect(holdsMergePatch('x', 'x')).toBe(true);
  });
});
