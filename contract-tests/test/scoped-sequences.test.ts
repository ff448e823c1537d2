/**
 * Sequences over collections under a scope (fixtures/specs/scoped-offices: every path under
 * `{accountId}`, which no operation creates): the sequences draw one account and name it in every
 * step, a parent's create included, so what it creates is read, listed and deleted where it was
 * made. Against the mock they pass; a provider that reads every record back from another account
 * (as if records were not kept apart) fails them.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { planSequences } from '../sequences.js';
import { suiteContractOf } from '../spec-contract.js';
import { mockBehindProxies } from './providers/mock-proxy.js';

const SPEC = fileURLToPath(new URL('../../fixtures/specs/scoped-offices/openapi.yaml', import.meta.url));

describe('a scoped collection', () => {
  const { url, run, failed, through } = mockBehindProxies({ spec: SPEC, token: 'scoped-token', seed: 5, generated: { positive: 1, negative: 1 } });

  it('is planned with its scope, the nested one with its parent and the same scope', () => {
    const compiled = loadContract(SPEC);
    const plans = planSequences(
      compiled,
      [...compiled.operations.keys()].map((id) => suiteContractOf(compiled, id)),
    );
    expect(plans.find((plan) => plan.collection === '/accounts/{accountId}/offices')?.scope).toEqual(['accountId']);
    const rooms = plans.find((plan) => plan.collection === '/accounts/{accountId}/offices/{officeId}/rooms');
    expect(rooms?.scope).toEqual(['accountId']);
    expect(rooms?.parent).toMatchObject({ collection: '/accounts/{accountId}/offices', parameter: 'officeId' });
  });

  it('runs against the mock: every step of a sequence names one account', async () => {
    const report = await run(url());
    expect(failed(report)).toEqual([]);
    const steps = report.exchanges.flatMap((e) =>
      e.case.sequence && e.case.sequence.kind !== 'cleanup' && e.case.sequence.kind !== 'read-missing' ? [{ kind: e.case.sequence.kind, path: new URL(e.request.url).pathname }] : [],
    );
    const offices = steps.filter((s) => /^\/accounts\/[^/]+\/offices(\/\d+)?$/.test(s.path));
    expect(offices.map((s) => s.kind)).toEqual(expect.arrayContaining(['create', 'read', 'list']));
    const rooms = steps.filter((s) => /\/rooms/.test(s.path));
    expect(rooms.map((s) => s.kind)).toEqual(expect.arrayContaining(['create', 'read']));
    // One account drawn for the run's sequences, named by every step: the rooms' office was made in it too.
    const accounts = new Set(steps.map((s) => s.path.split('/')[2]));
    expect(accounts.size).toBe(1);
    const [account] = accounts;
    expect(steps.filter((s) => s.kind === 'create' && s.path === `/accounts/${account}/offices`).length).toBeGreaterThanOrEqual(2);
  });

  it('cleans up every office its cases created, each in the account it was made in', async () => {
    const report = await run(url());
    const made = report.exchanges.flatMap((e) =>
      e.case.operationId === 'createOffice' && !e.case.sequence && e.outcome === 'response' && e.response.status === 201
        ? [`${new URL(e.request.url).pathname}/${(JSON.parse(e.response.body) as { id: number }).id}`]
        : [],
    );
    // Generated creates go to the accounts their cases drew, more than the sequences' one.
    expect(new Set(made.map((path) => path.split('/')[2])).size).toBeGreaterThan(1);
    for (const path of made) expect((await fetch(new URL(path, url()), { headers: { authorization: 'Bearer scoped-token' } })).status, path).toBe(404);
  });

  it('fails a provider that serves an office from another account than the one it was made in', async () => {
    const report = await through(async (request, forward) =>
      request.method === 'GET' && /^\/accounts\/[^/]+\/offices\/\d+$/.test(request.url) ? forward({ url: request.url.replace(/^\/accounts\/[^/]+/, '/accounts/elsewhere') }) : forward(),
    );
    expect(failed(report)).toContain('ensure_resource_availability');
  });
});
