/**
 * --string-samples N: each plain string property walks N samples of the string domain instead of all
 * of them, taken in turn from one property to the next, so an operation with enough string properties
 * still sends every sample (to fewer properties). What a quick run on a large API (and the corpus
 * tests) use; the default walks the whole domain on every property. Against the stateful mock serving
 * a spec written here, over real HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { contractCommand, parseContractArgs } from '../cli-options.js';
import { domainSamples } from '../generated.js';
import { STRING_DOMAIN } from '../generators/strings.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { ContractUsageError, resolveOptions } from '../options.js';

const PROPERTIES = ['title', 'author', 'summary', 'body', 'place', 'mood', 'weather', 'song'];
const NOTE = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, ...Object.fromEntries(PROPERTIES.map((name) => [name, { type: 'string' }])) } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: NOTE } } }, '400': { description: 'refused' } },
      },
    },
  },
};

/** The string-domain cases sent, by property: the labels of the samples each was sent. */
function walked(report: ContractReport): Map<string, string[]> {
  const labels = new Set(STRING_DOMAIN.map((sample) => sample.label));
  const out = new Map<string, string[]>();
  for (const exchange of report.exchanges) {
    const match = /^generated:string-([a-z]+)-(.+)$/.exec(exchange.case.id);
    if (!match || exchange.outcome === 'not-sent') continue;
    const [, property, label] = match as unknown as [string, string, string];
    expect(labels.has(label), label).toBe(true);
    out.set(property, [...(out.get(property) ?? []), label]);
  }
  return out;
}

async function runOn(strings?: number): Promise<ContractReport> {
  const spec = join(mkdtempSync(join(tmpdir(), 'string-samples-')), 'notes.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
  try {
    return await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 5, generated: { positive: 1, negative: 1, ...(strings === undefined ? {} : { strings }) } });
  } finally {
    await mock.close();
  }
}

describe('the string domain walk, sampled per property', () => {
  it('takes the samples in turn: each property its count, the properties together the whole domain', () => {
    const count = 7;
    const properties = Math.ceil(STRING_DOMAIN.length / count);
    const seen = new Set<string>();
    for (let nth = 0; nth < properties; nth++) {
      const samples = domainSamples(count, nth);
      expect(samples).toHaveLength(count);
      for (const sample of samples) seen.add(sample.label);
    }
    expect(seen.size).toBe(STRING_DOMAIN.length);
    expect(domainSamples(undefined, 3)).toBe(STRING_DOMAIN);
    expect(domainSamples(STRING_DOMAIN.length, 3)).toBe(STRING_DOMAIN);
  });

  it('sends every property the whole domain by default, and says nothing of samples', async () => {
    const report = await runOn();
    const sent = walked(report);
    expect([...sent.keys()].sort()).toEqual([...PROPERTIES].sort());
    for (const labels of sent.values()) expect(labels).toHaveLength(STRING_DOMAIN.length);
    expect(report.stringSamples).toBeUndefined();
    expect(formatReport(report)).not.toContain('String domain:');
    expect(report.ok).toBe(true);
  });

  it('sends each property its samples with --string-samples 6: 6 per property, every sample to one of them, the run still green', async () => {
    const report = await runOn(6);
    const sent = walked(report);
    expect([...sent.keys()].sort()).toEqual([...PROPERTIES].sort());
    for (const labels of sent.values()) expect(labels).toHaveLength(6);
    // Eight properties of six samples: 48 draws, enough to cover the domain once.
    expect(new Set([...sent.values()].flat()).size).toBe(Math.min(STRING_DOMAIN.length, 6 * PROPERTIES.length));
    expect(report.stringSamples).toEqual({ sent: 6, of: STRING_DOMAIN.length });
    expect(formatReport(report)).toContain(`String domain: 6 of its ${STRING_DOMAIN.length} samples per string property (--string-samples)`);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('reads --string-samples from the command line, and refuses a count past the domain', () => {
    const parse = (args: string[]) => resolveOptions(parseContractArgs(args, contractCommand().configureOutput({ writeErr: () => {} })));
    expect(parse(['--base-url', 'http://127.0.0.1:1', '--token', 'abc', '--string-samples', '3']).generated).toEqual({ positive: 25, negative: 25, strings: 3 });
    expect(parse(['--base-url', 'http://127.0.0.1:1', '--token', 'abc']).generated).toEqual({ positive: 25, negative: 25 });
    expect(() => parse(['--base-url', 'http://127.0.0.1:1', '--token', 'abc', '--string-samples', String(STRING_DOMAIN.length + 1)])).toThrow();
    expect(() => resolveOptions({ baseUrl: 'http://127.0.0.1:1', token: 'abc', generated: { strings: -1 } })).toThrow(ContractUsageError);
  });
});
