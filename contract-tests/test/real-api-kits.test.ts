/**
 * Mutation analysis on two real APIs' shapes (docs/contract-mutations.md, "Real APIs"): one
 * conformance table over several implementations, as hono's common.case.test.ts runs one table
 * over its runtimes. Each row is a provider (the correct one, a legal variant, or one flaw) of
 * DocuSign Maestro (bearer, problem+json, workflows → instances nested below them) or Gotify
 * (API keys in a header, the query or Basic; bare-array lists; `{messages, paging}` pages walked
 * by `since` and `next`), the operations the suite is run on, the exit status it must end with and
 * the checks that must fail. A correct provider and every legal variant pass twice in a row
 * against one instance (exit 0); each flaw fails exactly the checks named. The suite runs in the
 * test's process on each kit's spec compiled once (the command line is tested on its own), its exit
 * status the command's (0 when the report passes, else 1). Rows marked `missed`
 * are flaws the suite does not catch yet: findings, kept here so that the row fails (and is
 * moved) the day the suite catches them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../fixtures/index.js';
import { loadContract, readContract } from '../../openapi/operations/compile.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { dependencyGraph } from '../../openapi/operations/dependencies.js';
import { producedValues, resourceQueries } from '../dependencies.js';
import { dryRunText } from '../dry-run.js';
import { formatReport, runContractSuite } from '../index.js';
import { CHECK_NAMES, type CheckName } from '../model.js';
import { suiteSpecOf, type SuiteSpec } from '../spec-contract.js';
import { GOTIFY_FLAWS, GOTIFY_LEGAL, GOTIFY_OPERATIONS, GOTIFY_SPEC, startGotifyProvider, type GotifyVariant } from './providers/gotify-kit.js';
import { MAESTRO_FLAWS, MAESTRO_LEGAL, MAESTRO_SPEC, startMaestroProvider, type MaestroVariant } from './providers/maestro-kit.js';
import type { Provider } from './providers/provider.js';

const TOKEN = 'kit-token';
const BASIC = 'kit:pass';

export interface Row {
  kit: 'maestro' | 'gotify';
  /** undefined: the correct provider. */
  variant: MaestroVariant | GotifyVariant | undefined;
  /** The operations the suite runs on (what the row is about: a run on every operation of both kits for each row would take minutes). */
  operations: readonly string[];
  exit: 0 | 1;
  /** The checks that fail (empty when the run passes). */
  fails: readonly CheckName[];
  /** A flaw the suite does not catch: a finding. */
  missed?: true;
}

const MAESTRO_ALL = [
  'GetWorkflowsList',
  'GetWorkflowTriggerRequirements',
  'TriggerWorkflow',
  'getWorkflowInstancesList',
  'pauseNewWorkflowInstances',
  'resumePausedWorkflow',
  'getWorkflowInstance',
  'cancelWorkflowInstance',
];
const maestro = (variant: MaestroVariant | undefined, operations: readonly string[], exit: 0 | 1, fails: readonly CheckName[] = [], missed?: true): Row => ({
  kit: 'maestro',
  variant,
  operations,
  exit,
  fails,
  ...(missed ? { missed } : {}),
});
const gotify = (variant: GotifyVariant | undefined, operations: readonly string[], exit: 0 | 1, fails: readonly CheckName[] = [], missed?: true): Row => ({
  kit: 'gotify',
  variant,
  operations,
  exit,
  fails,
  ...(missed ? { missed } : {}),
});

export const TABLE: readonly Row[] = [
  maestro(undefined, MAESTRO_ALL, 0),
  maestro('extra-properties', ['GetWorkflowsList', 'GetWorkflowTriggerRequirements', 'TriggerWorkflow', 'getWorkflowInstancesList'], 0),
  maestro('braced-ids', ['GetWorkflowsList', 'GetWorkflowTriggerRequirements', 'getWorkflowInstance'], 0),
  maestro('unauthorized-as-text', ['GetWorkflowsList', 'cancelWorkflowInstance'], 0),
  maestro('duration-as-string', ['GetWorkflowsList'], 1, ['response_schema_conformance']),
  maestro('errors-as-json', ['GetWorkflowTriggerRequirements'], 1, ['content_type_conformance']),
  maestro('status-filter-ignored', ['GetWorkflowsList'], 1, ['list_honours_parameters']),
  maestro('unknown-workflow-empty-requirements', ['GetWorkflowTriggerRequirements'], 1, ['missing_resource_not_found']),
  maestro('unknown-instance-200', ['getWorkflowInstance'], 1, ['missing_resource_not_found']),
  maestro('instance-missing-from-list', ['TriggerWorkflow', 'getWorkflowInstance'], 1, ['ensure_resource_availability', 'resource_consistency']),
  maestro('instance-listed-under-every-workflow', ['TriggerWorkflow', 'getWorkflowInstancesList'], 1, ['resource_consistency']),
  maestro('trigger-inputs-not-persisted', ['TriggerWorkflow', 'getWorkflowInstancesList'], 1, ['resource_consistency']),
  maestro('started-at-without-offset', ['TriggerWorkflow', 'getWorkflowInstancesList'], 1, ['response_schema_conformance']),
  maestro('trigger-event-type-outside-const', ['GetWorkflowTriggerRequirements'], 1, ['response_schema_conformance']),
  maestro('auth-ignored-on-cancel', ['TriggerWorkflow', 'cancelWorkflowInstance'], 1, ['ignored_auth']),
  maestro('trigger-without-name-accepted', ['TriggerWorkflow'], 1, ['negative_data_rejection']),
  maestro('cancel-crashes-twice', ['TriggerWorkflow', 'cancelWorkflowInstance'], 1, ['not_a_server_error']),
  maestro('trigger-answers-200', ['TriggerWorkflow'], 1, ['status_code_conformance']),
  maestro('auth-ignored-on-trigger', ['TriggerWorkflow'], 1, ['ignored_auth']),
  maestro('error-code-as-number', ['GetWorkflowTriggerRequirements'], 1, ['response_schema_conformance']),
  maestro('http-method-lower-case', ['GetWorkflowTriggerRequirements'], 1, ['response_schema_conformance']),
  maestro('pause-twice-crashes', ['pauseNewWorkflowInstances'], 1, ['not_a_server_error']),
  maestro('account-id-not-uuid', ['GetWorkflowsList'], 1, ['response_schema_conformance']),
  maestro('resume-answers-204', ['resumePausedWorkflow'], 1, ['status_code_conformance']),
  maestro('instance-steps-as-text', ['TriggerWorkflow', 'getWorkflowInstance'], 1, ['response_schema_conformance']),
  maestro('cancel-always-conflicts', ['TriggerWorkflow', 'cancelWorkflowInstance'], 1, ['positive_data_acceptance']),
  gotify(undefined, GOTIFY_OPERATIONS, 0),
  gotify('extra-properties', GOTIFY_OPERATIONS, 0),
  gotify('sparse-ids', ['createApp', 'getApps', 'deleteApp', 'createMessage', 'getMessages', 'deleteMessage'], 0),
  gotify('forbidden-for-wrong-key', ['getApps', 'getMessages', 'deleteMessage'], 0),
  gotify('past-end-crashes', ['createMessage', 'getMessages'], 1, ['not_a_server_error']),
  gotify('limit-ignored', ['createMessage', 'getMessages'], 1, ['list_honours_parameters']),
  gotify('delete-keeps-message', ['createMessage', 'getMessages', 'deleteMessage'], 1, ['use_after_free']),
  gotify('created-app-not-listed', ['createApp', 'getApps'], 1, ['ensure_resource_availability', 'resource_consistency']),
  gotify('date-without-offset', ['createApp', 'createMessage', 'getMessages'], 1, ['response_schema_conformance']),
  gotify('image-missing', ['getApps'], 1, ['response_schema_conformance']),
  gotify('priority-as-string', ['createApp', 'createMessage', 'getMessages'], 1, ['response_schema_conformance']),
  gotify('list-without-key', ['getMessages'], 1, ['ignored_auth']),
  gotify('name-trimmed', ['createApp'], 1, ['response_echoes_request']),
  gotify('message-without-text-accepted', ['createMessage'], 1, ['negative_data_rejection']),
  gotify('limit-over-200-accepted', ['getMessages'], 1, ['response_schema_conformance', 'negative_data_rejection']),
  gotify('error-without-code', ['deleteMessage'], 1, ['response_schema_conformance']),
  gotify('next-repeats-page', ['createMessage', 'getMessages'], 1, ['ensure_resource_availability', 'list_pages_advance']),
  gotify('update-not-persisted', ['createApp', 'getApps', 'updateApplication'], 1, ['resource_consistency']),
  gotify('unknown-message-delete-200', ['createMessage', 'getMessages', 'deleteMessage'], 1, ['missing_resource_not_found']),
  gotify('messages-of-unknown-app-200', ['createApp', 'getAppMessages'], 1, ['missing_resource_not_found']),
];

function start(row: Row): Promise<Provider> {
  return row.kit === 'maestro' ? startMaestroProvider(TOKEN, row.variant as MaestroVariant | undefined) : startGotifyProvider(TOKEN, BASIC, row.variant as GotifyVariant | undefined);
}

/** The bundled fixture cases, read once for the file's 57 runs (each run would read them again). */
const fixtures = loadFixtures();
const specs = new Map<Row['kit'], Promise<SuiteSpec>>();
/** Each kit's spec, read as `--spec` reads it, compiled for the first row that runs on it. */
function specOf(kit: Row['kit']): Promise<SuiteSpec> {
  const spec = specs.get(kit) ?? readContract(kit === 'maestro' ? MAESTRO_SPEC : GOTIFY_SPEC).then(suiteSpecOf);
  specs.set(kit, spec);
  return spec;
}

/** The checks the report's table marks failed or not judged. */
function failedChecks(output: string): string[] {
  return output
    .split('\n')
    .map((line) => /^[✗?] ([a-z_]+) /.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && (CHECK_NAMES as readonly string[]).includes(name));
}

const name = (row: Row): string => `${row.kit} ${row.variant ?? 'correct provider'}`;

describe.each(TABLE.map((row) => ({ row, title: name(row) })))('$title', ({ row }) => {
  let provider: Provider;
  const runs: Array<{ code: number; output: string }> = [];
  beforeAll(async () => {
    provider = await start(row);
    const options = {
      baseUrl: provider.url,
      token: TOKEN,
      basic: BASIC,
      seed: 7,
      generated: { positive: 0, negative: 0 },
      includeOperations: row.operations,
      contract: await specOf(row.kit),
      fixtures,
    };
    // A pass must hold twice against one instance (the suite cleans up after itself); a failure is judged once.
    for (let i = 0; i < (row.exit === 0 && !row.missed ? 2 : 1); i++) {
      const report = await runContractSuite(options);
      runs.push({ code: report.ok ? 0 : 1, output: formatReport(report) });
    }
  }, 120_000);
  afterAll(() => provider?.close());

  it(row.missed ? `is not caught yet (a finding): exit ${row.exit}` : row.exit === 0 ? 'passes twice in a row (exit 0)' : `fails ${row.fails.join(', ')} (exit 1)`, () => {
    for (const run of runs) {
      expect({ exit: run.code, fails: failedChecks(run.output) }, run.output.slice(-4000)).toEqual({ exit: row.exit, fails: row.fails });
    }
  });
});

it('has a row for every variant of both kits, and at least 12 flaws of each caught', () => {
  const rows = (kit: Row['kit']) => TABLE.filter((r) => r.kit === kit);
  expect(
    rows('maestro')
      .map((r) => r.variant ?? '')
      .sort(),
  ).toEqual(['', ...Object.keys(MAESTRO_LEGAL), ...Object.keys(MAESTRO_FLAWS)].sort());
  expect(
    rows('gotify')
      .map((r) => r.variant ?? '')
      .sort(),
  ).toEqual(['', ...Object.keys(GOTIFY_LEGAL), ...Object.keys(GOTIFY_FLAWS)].sort());
  for (const [variant, flaw] of [...Object.entries(MAESTRO_FLAWS), ...Object.entries(GOTIFY_FLAWS)]) {
    const row = TABLE.find((r) => r.variant === variant);
    if (!row?.missed) expect(row?.fails, variant).toContain(flaw.caughtBy);
  }
});

it('takes a path id that only a list answers from that list ({workflowId} from GET …/workflows), never made up', () => {
  const compiled = loadContract(MAESTRO_SPEC);
  const planned = resourceQueries(dependencyGraph(compiled), suiteSpecOf(compiled).operations).filter((q) => q.in === 'path');
  expect(planned.map((q) => `${q.operationId} {${q.parameter}} ← ${q.producer}`)).toContain('TriggerWorkflow {workflowId} ← GetWorkflowsList');
  // A record's own id (an instance, listed below its workflow) is the sequences' business, not a list's first record.
  expect(planned.some((q) => q.parameter === 'instanceId')).toBe(false);
});

it("makes an instance with the trigger, the instances' create, before the cases below one, which the read and the cancel then act on", async () => {
  const compiled = loadContract(MAESTRO_SPEC);
  const { operations } = suiteSpecOf(compiled);
  // The trigger answers 201 naming the instance by the item path's noun id (`instance_id` for {instanceId}): it makes the instances' records.
  const instances = recogniseCollections(compiled).collections.find((c) => c.path.endsWith('/instances'));
  expect(instances).toMatchObject({ create: { operationId: 'TriggerWorkflow' }, keyAnswered: 'instance_id', identity: { property: 'id', assigned: 'uuid' }, scope: ['accountId', 'workflowId'] });
  // No longer an action called for what its answer names: the records' own create.
  expect(producedValues(dependencyGraph(compiled), operations)).toEqual([]);
  const dry = dryRunText({ compiled, operations, source: 'maestro' });
  expect(dry).toContain('TriggerWorkflow → getWorkflowInstance → getWorkflowInstancesList');
  expect(dry).toContain('{instanceId} ← TriggerWorkflow .id (parent)');
  // Workflows are only listed: their status filter is judged on the list's own records.
  expect(dry).toContain('their filters judged on their own records (listed without, then with a value they hold):\n  GetWorkflowsList: status');

  const provider = await startMaestroProvider(TOKEN, 'instance-steps-as-text');
  try {
    const base = { baseUrl: provider.url, token: TOKEN, seed: 7, generated: { positive: 0, negative: 0 }, contract: await specOf('maestro'), fixtures };
    const reads = (report: Awaited<ReturnType<typeof runContractSuite>>): number[] =>
      report.exchanges.flatMap((x) => (x.case.operationId === 'getWorkflowInstance' && x.outcome === 'response' ? [x.response.status] : []));
    const started = await runContractSuite({ ...base, includeOperations: ['TriggerWorkflow', 'getWorkflowInstance', 'cancelWorkflowInstance'] });
    expect(reads(started)).toContain(200);
    expect(started.dependencies).toMatchObject({ belowParent: 1, onCreatedParent: 1, notOnCreated: [] });
    expect(started.findings.filter((f) => f.severity === 'failure').map((f) => f.check)).toContain('response_schema_conformance');
    // Without the trigger under test no instance exists: every read names one nobody started (404), and the flawed read goes unseen.
    const alone = await runContractSuite({ ...base, includeOperations: ['getWorkflowInstance'] });
    expect(reads(alone)).not.toContain(200);
    expect(alone.ok).toBe(true);
  } finally {
    await provider.close();
  }
}, 120_000);
