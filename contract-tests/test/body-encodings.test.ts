/**
 * Bodies in the encodings an operation declares besides JSON (contract-tests/generators/encodings.ts):
 * a URL-encoded form, multipart/form-data and XML, each valid body accepted and the same body with
 * bytes that are not UTF-8 refused. Proven on fixtures/specs/media-types against the mock, a
 * provider that refuses valid XML, one that repairs bad bytes into U+FFFD and stores them, and one
 * that answers with an extra field (legal).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { formUrlencoded, MULTIPART_BOUNDARY, multipartFormData, notUtf8, xmlDocument } from '../generators/encodings.js';
import { runContractSuite, type ContractReport, type SkipRule } from '../index.js';
import { editJson, startMockProxy, type MockProxy, type Tamper } from './providers/mock-proxy.js';

describe('body encodings', () => {
  const members = [
    ['title', '"Fern & co"'],
    ['pages', '9007199254740993'],
    ['tags', '["a","b c"]'],
    ['urgent', 'true'],
    ['gone', 'null'],
  ] as const;

  it('write a form, multipart and XML from the members (int64 digits kept, arrays repeated, null left out)', () => {
    expect(formUrlencoded(members)).toBe('title=Fern+%26+co&pages=9007199254740993&tags=a&tags=b+c&urgent=true');
    expect(multipartFormData(members)).toBe(
      ['title', 'Fern & co', 'pages', '9007199254740993', 'tags', 'a', 'tags', 'b c', 'urgent', 'true']
        .reduce<string[]>((parts, _, i, all) => (i % 2 ? parts : [...parts, `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${all[i]}"\r\n\r\n${all[i + 1]}\r\n`]), [])
        .join('') + `--${MULTIPART_BOUNDARY}--\r\n`,
    );
    expect(xmlDocument(members, 'NewNote')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><NewNote><title>Fern &amp; co</title><pages>9007199254740993</pages><tags>a</tags><tags>b c</tags><urgent>true</urgent></NewNote>',
    );
  });

  it('write nothing for a member holding an object, or a name XML cannot carry', () => {
    expect(formUrlencoded([['address', '{"city":"Oslo"}']])).toBeUndefined();
    expect(multipartFormData([['tags', '[{"a":1}]']])).toBeUndefined();
    expect(xmlDocument([['a b', '1']], 'Note')).toBeUndefined();
    expect(xmlDocument([['a', '1']], 'request body')).toBeUndefined();
  });

  it('put C3 28 where a value starts, the rest untouched', () => {
    expect(Buffer.from(notUtf8('title=Fern', 'title=') ?? []).toString('hex')).toBe(Buffer.concat([Buffer.from('title='), Buffer.from([0xc3, 0x28]), Buffer.from('ern')]).toString('hex'));
    expect(notUtf8('x', 'nowhere')).toBeUndefined();
  });
});

describe('body encoding cases against providers (fixtures/specs/media-types)', () => {
  const SPEC = fileURLToPath(new URL('../../fixtures/specs/media-types/openapi.yaml', import.meta.url));
  const KNOWN: SkipRule[] = [];
  let mock: MockServer;
  const proxies: MockProxy[] = [];
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC });
  });
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await mock?.close();
  });
  const run = (baseUrl: string, skip: SkipRule[] = KNOWN): Promise<ContractReport> =>
    runContractSuite({ baseUrl, spec: SPEC, seed: 4, includeOperations: ['createNote'], skip, generated: { positive: 1, negative: 1 } });
  const through = async (tamper: Tamper, skip?: SkipRule[]): Promise<ContractReport> => {
    const proxy = await startMockProxy(mock.url, tamper);
    proxies.push(proxy);
    return run(proxy.url, skip);
  };
  const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}`);
  const isEncoded = (headers: Readonly<Record<string, string>>, kind: RegExp): boolean => kind.test(headers['content-type'] ?? '');

  it('sends each declared encoding, valid and not UTF-8, and passes against the mock', async () => {
    const report = await run(mock.url);
    expect(failures(report)).toEqual([]);
    const ids = report.exchanges.map((e) => e.case.id);
    for (const label of ['form-valid', 'form-not-utf8', 'multipart-valid', 'xml-valid', 'xml-not-utf8']) expect(ids).toContain(`generated:media-type-${label}`);
  });

  it('fails positive_data_acceptance, naming the XML case, against a provider that answers 415 to valid XML', async () => {
    const report = await through(async (request, forward) =>
      isEncoded(request.headers, /xml/i) ? { status: 415, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"no XML"}') } : forward(),
    );
    expect(failures(report)).toEqual(['positive_data_acceptance generated:media-type-xml-valid']);
  });

  it('fails negative_data_rejection, naming the form case, against a provider that repairs bytes that are not UTF-8 (U+FFFD) and stores the form', async () => {
    const report = await through(async (request, forward) => (isEncoded(request.headers, /urlencoded/i) ? forward({ body: Buffer.from(request.body.toString('utf8'), 'utf8') }) : forward()));
    expect(failures(report)).toEqual(['negative_data_rejection generated:media-type-form-not-utf8']);
  });

  it('passes a provider that answers each note with a field more (legal)', async () => {
    const report = await through(async (_request, forward) => editJson(await forward(), (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, receivedBy: 'desk 2' } : v)));
    expect(failures(report)).toEqual([]);
  });
});
