/**
 * --variant-samples N: each operation is sent N variants of each fixed family (credentials written
 * every way, JSON syntax, media-type spellings, body shapes), and each property N wrong JSON types,
 * instead of all of them, the ones sent least so far, so taken in turn from
 * one operation to the next, so a run with enough operations still sends every variant; "no credential
 * at all" still goes to every secured operation. Against the stateful mock over real HTTP: a correct
 * one passes, and one that leaves a single route unsecured still fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { contractCommand, parseContractArgs } from '../cli-options.js';
import { VariantTurns } from '../generated.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { ContractUsageError, resolveOptions } from '../options.js';

const TOKEN = 'variant-token-1';
const NAMES = ['notes', 'songs', 'poems', 'maps', 'lists', 'tasks', 'boards', 'cards', 'decks'];
const THING = { type: 'object', required: ['title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', maxLength: 40 } } };

/** Nine creates behind a bearer scheme; `open` names the one a broken provider serves without it. */
function spec(open?: string): object {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: Object.fromEntries(
      NAMES.map((name) => [
        `/${name}`,
        {
          post: {
            operationId: `create-${name}`,
            ...(name === open ? { security: [] } : {}),
            requestBody: { required: true, content: { 'application/json': { schema: THING } } },
            responses: { '201': { description: 'created', content: { 'application/json': { schema: THING } } }, '400': { description: 'refused' }, '401': { description: 'no credential' } },
          },
        },
      ]),
    ),
  };
}

function written(document: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'variant-samples-')), 'things.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

/** The suite with the full spec against a mock serving `served` (the same spec, or one a route less secured). */
async function runAgainst(served: string, variants?: number): Promise<ContractReport> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: served, tokens: [TOKEN] });
  try {
    return await runContractSuite({
      baseUrl: mock.url,
      token: TOKEN,
      spec: written(spec()),
      seed: 11,
      generated: { positive: 0, negative: 0, strings: 1, ...(variants === undefined ? {} : { variants }) },
    });
  } finally {
    await mock.close();
  }
}

/**
 * Per family, the labels each operation was given (sent, or reported not sent where the spec's validator
 * contradicts the variant); the wrong JSON types of the body's one property (`title`) as the family `type`.
 */
function sentByFamily(report: ContractReport): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const exchange of report.exchanges) {
    const match = /^generated:(create-[a-z]+)\/(auth|syntax|shape|media-type|value-title-type)-(.+)$/.exec(exchange.case.id);
    if (!match) continue;
    const [, operation, named, label] = match as unknown as [string, string, string, string];
    const family = named === 'value-title-type' ? 'type' : named;
    const byOperation = out.get(family) ?? new Map<string, string[]>();
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), label]);
    out.set(family, byOperation);
  }
  return out;
}

describe('fixed families sampled per operation, in turn across the operations', () => {
  it('sends each operation the variants sent least so far, keeps what "always" keeps, and counts what went out', () => {
    const variants = ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label }));
    const turns = new VariantTurns(2);
    const taken = [0, 1, 2].map(() => turns.take('shape', variants).map((v) => v.label));
    expect(taken).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['a', 'e'],
    ]);
    // Another list has turns of its own; the kept variant comes on top of the count.
    const auth = [{ label: 'no-credential' }, { label: 'x' }, { label: 'y' }, { label: 'z' }];
    expect(turns.take('auth', auth, (v) => v.label === 'no-credential').map((v) => v.label)).toEqual(['no-credential', 'x', 'y']);
    expect(turns.take('auth', auth, (v) => v.label === 'no-credential').map((v) => v.label)).toEqual(['no-credential', 'x', 'z']);
    expect(turns.coverage()).toEqual({ sent: 5 + 3, of: 5 + 3 });
    expect(new VariantTurns(9).take('shape', variants)).toEqual(variants);
    // Lists that differ (a body without an identity has fewer syntax variants) still go round together.
    const mixed = new VariantTurns(2);
    const shorter = variants.slice(0, 4);
    expect(mixed.take('syntax', shorter).map((v) => v.label)).toEqual(['a', 'b']);
    expect(mixed.take('syntax', variants).map((v) => v.label)).toEqual(['c', 'd']);
    expect(mixed.take('syntax', shorter).map((v) => v.label)).toEqual(['a', 'b']);
    expect(mixed.take('syntax', variants).map((v) => v.label)).toEqual(['c', 'e']);
    expect(mixed.coverage()).toEqual({ sent: 5, of: 5 });
    const one = new VariantTurns(1);
    one.take('shape', variants);
    expect(one.coverage()).toEqual({ sent: 1, of: 5 });
  });

  it('sends every operation every variant by default, and says nothing of samples', async () => {
    const report = await runAgainst(written(spec()));
    const families = sentByFamily(report);
    for (const family of ['auth', 'syntax', 'shape', 'media-type', 'type']) {
      const lists = [...(families.get(family)?.values() ?? [])];
      expect(lists, family).toHaveLength(NAMES.length);
      for (const labels of lists) expect(labels).toEqual(lists[0]);
    }
    expect(report.variantSamples).toBeUndefined();
    expect(formatReport(report)).not.toContain('--variant-samples');
    expect(report.ok).toBe(true);
  });

  it('sends each operation 2 of each family with --variant-samples 2, every variant to some operation, the run still green', async () => {
    const full = sentByFamily(await runAgainst(written(spec())));
    // A string property is sent a number, a fraction, a boolean, null, an array and an object by default.
    expect(full.get('type')?.get('create-notes')).toEqual(['number', 'fraction', 'boolean', 'null', 'array', 'object']);
    const report = await runAgainst(written(spec()), 2);
    const families = sentByFamily(report);
    let offered = 0;
    for (const [family, byOperation] of full) {
      const everyVariant = new Set(byOperation.get('create-notes'));
      const rotated = family === 'auth' ? everyVariant.size - 1 : everyVariant.size;
      offered += rotated;
      const sent = families.get(family) ?? new Map<string, string[]>();
      expect(sent.size, family).toBe(NAMES.length);
      for (const labels of sent.values()) {
        expect(
          labels.filter((label) => label !== 'no-credential'),
          family,
        ).toHaveLength(Math.min(2, rotated));
        if (family === 'auth') expect(labels).toContain('no-credential');
      }
      // Nine operations of two each: every variant of a family of up to 18 goes out once at least.
      expect(new Set([...sent.values()].flat()).size, family).toBe(Math.min(everyVariant.size, 2 * NAMES.length + (family === 'auth' ? 1 : 0)));
    }
    expect(report.variantSamples?.perOperation).toBe(2);
    expect(report.variantSamples?.of).toBe(offered);
    expect(report.variantSamples?.sent).toBe(
      [...full].reduce((sum, [family, byOperation]) => sum + Math.min((byOperation.get('create-notes')?.length ?? 0) - (family === 'auth' ? 1 : 0), 2 * NAMES.length), 0),
    );
    expect(formatReport(report)).toContain(`2 of each per operation, and 2 wrong JSON types per property and parameter (--variant-samples)`);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('still fails a provider that leaves one route unsecured, with --variant-samples 0', async () => {
    const report = await runAgainst(written(spec('cards')), 0);
    const failed = report.findings.filter((f) => f.severity === 'failure');
    expect(failed.some((f) => f.check === 'ignored_auth' && f.exchange.case.id === 'generated:create-cards/auth-no-credential')).toBe(true);
    expect(failed.filter((f) => f.check === 'ignored_auth').every((f) => f.exchange.case.operationId === 'create-cards')).toBe(true);
    expect(report.ok).toBe(false);
  });

  it('reads --variant-samples from the command line, and refuses a negative count', () => {
    const parse = (args: string[]) => resolveOptions(parseContractArgs(args, contractCommand().configureOutput({ writeErr: () => {} })));
    expect(parse(['--base-url', 'http://127.0.0.1:1', '--token', 'abc', '--variant-samples', '3']).generated).toEqual({ positive: 25, negative: 25, variants: 3 });
    expect(() => parse(['--base-url', 'http://127.0.0.1:1', '--token', 'abc', '--variant-samples', '-1'])).toThrow();
    expect(() => resolveOptions({ baseUrl: 'http://127.0.0.1:1', token: 'abc', generated: { variants: -1 } })).toThrow(ContractUsageError);
  });
});
