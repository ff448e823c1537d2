/**
 * A real API's kit: a correct in-process provider of DocuSign Maestro
 * (fixtures/real-world/docusign-maestro: workflows listed per account and filtered by an enum
 * `status`, instances triggered and listed below a workflow, an instance's cancel below it, pause
 * and resume, bearer (OAuth2) everywhere, every error application/problem+json), legal variants and
 * single-flaw providers. real-api-kits.test.ts runs the suite against each and requires the exit
 * and the check named here (docs/contract-mutations.md, "Real APIs").
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../../openapi/operations/compile.js';
import type { CheckName } from '../../model.js';
import { startSmallProvider, type Answer, type SmallRequest } from './small-provider.js';
import type { Provider } from './provider.js';

export const MAESTRO_SPEC = fileURLToPath(new URL('../../../fixtures/real-world/docusign-maestro/maestro.rest.swagger-v1.0.0.json', import.meta.url));
const validTrigger = loadContract(MAESTRO_SPEC).operations.get('TriggerWorkflow')?.requestBody?.content.get('application/json')?.validate;

/** The spec's UUID: 8-4-4-4-12 hex digits, optionally in braces. */
const UUID = /^[{]?[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}[}]?$/;
const STATUSES = ['active', 'inactive', 'publishing', 'unpublishing', 'archived', 'archiving'];

/** The workflows every account has (an account's workflows are made in the Maestro designer, never through this API). */
const WORKFLOWS = [
  { id: '9fabc6d2-748b-41c9-8d5e-5fbf2f7e6e72', name: 'Agreement Signature Collection', status: 'active' },
  { id: 'b3c1ff15-4f5e-42b0-b74e-96177fa0e92d', name: 'Contract Review Reminder', status: 'inactive' },
  { id: '2fe67b39-1920-46d1-b0c1-3b9236b3e3ad', name: 'Contract Expiration Notification', status: 'archived' },
];

/** Each variant or flaw the provider can take: one switch each, so that every flawed provider differs from the correct one in one place. */
export type MaestroVariant =
  // legal
  | 'extra-properties'
  | 'braced-ids'
  | 'unauthorized-as-text'
  // flawed
  | 'status-filter-ignored'
  | 'unknown-workflow-empty-requirements'
  | 'unknown-instance-200'
  | 'instance-missing-from-list'
  | 'instance-listed-under-every-workflow'
  | 'trigger-inputs-not-persisted'
  | 'started-at-without-offset'
  | 'trigger-event-type-outside-const'
  | 'auth-ignored-on-cancel'
  | 'trigger-without-name-accepted'
  | 'duration-as-string'
  | 'errors-as-json'
  | 'cancel-crashes-twice'
  | 'trigger-answers-200'
  | 'auth-ignored-on-trigger'
  | 'error-code-as-number'
  | 'http-method-lower-case'
  | 'pause-twice-crashes'
  | 'account-id-not-uuid'
  | 'resume-answers-204'
  | 'instance-steps-as-text'
  | 'cancel-always-conflicts';

interface Instance {
  id: string;
  workflowId: string;
  account: string;
  name: string;
  inputs: Record<string, unknown>;
  startedAt: string;
  canceledAt: string | null;
}

/** The 401's other declared media type: text/plain, a string. */
function response401AsText(answer: Answer): void {
  answer(401, Buffer.from('Unauthorized - Please provide a valid access token.'), { 'content-type': 'text/plain; charset=utf-8' });
}

export async function startMaestroProvider(token: string, variant?: MaestroVariant): Promise<Provider> {
  const instances = new Map<string, Instance>();
  const paused = new Set<string>();
  return startSmallProvider((request: SmallRequest, answer: Answer) => {
    const now = (): string => new Date().toISOString();
    // Errors are RFC 9457 problem documents as the spec's Error describes them: `code` a string.
    const problem = (status: number, error: string): void => {
      if (status === 401 && variant === 'unauthorized-as-text') {
        response401AsText(answer);
        return;
      }
      answer(
        status,
        { error, code: variant === 'error-code-as-number' ? status : String(status), timestamp: now() },
        { 'content-type': variant === 'errors-as-json' ? 'application/json' : 'application/problem+json' },
      );
    };
    const ok = (status: number, body: Record<string, unknown>): void => answer(status, variant === 'extra-properties' ? { ...body, _links: { self: request.url.pathname } } : body);
    const meta = (): Record<string, unknown> => ({
      response_timestamp: now(),
      response_duration_ms: variant === 'duration-as-string' ? '1' : 1,
      request_id: randomUUID(),
    });
    const id = (value: string): string => (variant === 'braced-ids' ? `{${value}}` : value);
    const bare = (value: string): string => value.replace(/^\{|\}$/g, '').toLowerCase();

    const match = /^\/v1\/accounts\/([^/]+)\/workflows(?:\/([^/]+)(\/.*)?)?$/.exec(request.url.pathname);
    if (!match) return problem(404, 'No such route.');
    const [, accountText, workflowText, rest = ''] = match.map((part) => (part === undefined ? undefined : decodeURIComponent(part))) as [string, string, string | undefined, string | undefined];
    const route =
      workflowText === undefined
        ? request.method === 'GET' && 'list'
        : rest === '/trigger-requirements'
          ? request.method === 'GET' && 'requirements'
          : rest === '/actions/trigger'
            ? request.method === 'POST' && 'trigger'
            : rest === '/actions/pause'
              ? request.method === 'POST' && 'pause'
              : rest === '/actions/resume'
                ? request.method === 'POST' && 'resume'
                : rest === '/instances'
                  ? request.method === 'GET' && 'instances'
                  : /^\/instances\/[^/]+$/.test(rest)
                    ? request.method === 'GET' && 'instance'
                    : /^\/instances\/[^/]+\/actions\/cancel$/.test(rest)
                      ? request.method === 'POST' && 'cancel'
                      : undefined;
    if (!route) return problem(route === false ? 405 : 404, 'No such route.');

    // RFC 6750 §2.1: one Authorization header, the scheme in any case, one or more spaces.
    const credential = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credential !== token && !(variant === 'auth-ignored-on-cancel' && route === 'cancel') && !(variant === 'auth-ignored-on-trigger' && route === 'trigger'))
      return problem(401, 'A valid access token is required.');

    if (!UUID.test(accountText)) return problem(400, 'accountId is a UUID.');
    const account = bare(accountText);
    if (route === 'list') {
      const status = request.url.searchParams.get('status');
      if (status !== null && !STATUSES.includes(status)) return problem(400, `status is one of ${STATUSES.join(', ')}.`);
      const keep = (s: string): boolean => status === null || variant === 'status-filter-ignored' || s === status;
      const data = WORKFLOWS.filter((w) => keep(w.status)).map((w) => ({
        id: id(w.id),
        name: w.name,
        account_id: variant === 'account-id-not-uuid' ? '4711' : account,
        status: w.status,
        metadata: { created_at: '2024-07-05T12:00:00+02:00' },
      }));
      return ok(200, { data, response_metadata: meta() });
    }
    if (workflowText === undefined || !UUID.test(workflowText)) return problem(400, 'workflowId is a UUID.');
    const workflow = WORKFLOWS.find((w) => w.id === bare(workflowText));
    if (!workflow) {
      if (route === 'requirements' && variant === 'unknown-workflow-empty-requirements') return ok(200, { trigger_input_schema: [], ...meta() });
      return problem(404, 'No such workflow.');
    }
    const instancesOf = (): Instance[] => [...instances.values()].filter((i) => i.account === account && (variant === 'instance-listed-under-every-workflow' || i.workflowId === workflow.id));
    const shown = (i: Instance): Record<string, unknown> => ({
      id: id(i.id),
      name: i.name,
      workflow_status: i.canceledAt ? 'Canceled' : 'In Progress',
      account_id: i.account,
      started_at: variant === 'started-at-without-offset' ? i.startedAt.replace(/Z$/, '') : i.startedAt,
      canceled_at: i.canceledAt,
      ended_at: i.canceledAt,
      last_modified_at: i.canceledAt ?? i.startedAt,
      trigger_inputs: variant === 'trigger-inputs-not-persisted' ? {} : i.inputs,
      total_steps: 3,
      last_completed_step: 0,
      tags: [],
    });
    switch (route) {
      case 'requirements':
        return ok(200, {
          trigger_id: id('00000000-0000-4000-8000-000000000001'),
          trigger_event_type: variant === 'trigger-event-type-outside-const' ? 'WEBHOOK' : 'HTTP',
          trigger_http_config: { method: variant === 'http-method-lower-case' ? 'post' : 'POST', url: `https://maestro.example/v1/accounts/${account}/workflows/${workflow.id}/actions/trigger` },
          trigger_input_schema: [{ field_name: 'name', field_data_type: 'string' }],
          ...meta(),
        });
      case 'trigger': {
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return problem(400, 'Send application/json.');
        const body = request.json();
        const nameless =
          variant === 'trigger-without-name-accepted' &&
          body !== null &&
          typeof body === 'object' &&
          !Array.isArray(body) &&
          !('instance_name' in body) &&
          validTrigger?.({ ...body, instance_name: '' });
        if (!validTrigger?.(body) && !nameless) return problem(400, 'The body is not a TriggerWorkflow.');
        if (paused.has(`${account}/${workflow.id}`)) return problem(400, 'New instances of this workflow are paused.');
        const record = body as { instance_name?: unknown; trigger_inputs: Record<string, unknown> };
        const instance: Instance = {
          id: randomUUID(),
          workflowId: workflow.id,
          account,
          name: typeof record.instance_name === 'string' ? record.instance_name : '',
          inputs: record.trigger_inputs,
          startedAt: now(),
          canceledAt: null,
        };
        if (variant !== 'instance-missing-from-list') instances.set(instance.id, instance);
        return ok(variant === 'trigger-answers-200' ? 200 : 201, { instance_id: id(instance.id), instance_url: `https://maestro.example/instances/${instance.id}`, ...meta() });
      }
      case 'pause':
      case 'resume':
        if (route === 'pause' && variant === 'pause-twice-crashes' && paused.has(`${account}/${workflow.id}`)) return problem(500, 'duplicate key value violates unique constraint');
        if (route === 'pause') paused.add(`${account}/${workflow.id}`);
        else paused.delete(`${account}/${workflow.id}`);
        if (route === 'resume' && variant === 'resume-answers-204') return answer(204);
        return ok(200, { status: route === 'pause' ? 'paused' : 'active' });
      case 'instances':
        return ok(200, { data: instancesOf().map(shown), response_metadata: meta() });
      default: {
        const instanceText = decodeURIComponent(rest.split('/')[2] as string);
        if (!UUID.test(instanceText)) return problem(400, 'instanceId is a UUID.');
        const instance = instancesOf().find((i) => i.id === bare(instanceText));
        if (!instance) {
          if (route === 'instance' && variant === 'unknown-instance-200') return ok(200, { id: id(bare(instanceText)), name: '', workflow_status: 'Unknown' });
          return problem(404, 'No such instance.');
        }
        if (route === 'instance') return ok(200, variant === 'instance-steps-as-text' ? { ...shown(instance), total_steps: '3' } : shown(instance));
        if (variant === 'cancel-always-conflicts') return problem(409, 'The instance is already canceled.');
        if (instance.canceledAt) return variant === 'cancel-crashes-twice' ? problem(500, 'Internal error.') : problem(409, 'The instance is already canceled.');
        instance.canceledAt = now();
        return ok(200, { message: `Successfully cancelled the workflow instance ${instance.id} in ${workflow.id}` });
      }
    }
  });
}

export interface KitRow {
  /** What the provider does differently from the correct one. */
  what: string;
  /** The check that must fail (a flaw), or undefined (a legal variant: the run passes). */
  caughtBy?: CheckName;
}

/** Correct providers that choose differently where the spec leaves a choice: each passes, twice in a row. */
export const MAESTRO_LEGAL: Partial<Record<MaestroVariant, KitRow>> = {
  'extra-properties': { what: 'adds an undeclared `_links` object to every success body (the schemas leave additionalProperties open)' },
  'braced-ids': { what: 'writes every id in braces, `{9fabc6d2-…}`, a form the spec’s UUID pattern allows, and reads ids in either form' },
  'unauthorized-as-text': { what: 'answers a missing or wrong token with a text/plain 401, the other media type the 401 declares beside problem+json' },
};

/** One flaw each, with the check that must catch it. */
export const MAESTRO_FLAWS: Partial<Record<MaestroVariant, Required<KitRow>>> = {
  'status-filter-ignored': { what: 'GET …/workflows ignores `status` and lists every workflow', caughtBy: 'list_honours_parameters' },
  'unknown-workflow-empty-requirements': { what: 'answers 200 with empty requirements for a workflow it does not have (the spec declares 404)', caughtBy: 'missing_resource_not_found' },
  'unknown-instance-200': { what: 'answers 200 with a stub for an instance it does not have', caughtBy: 'missing_resource_not_found' },
  'instance-missing-from-list': { what: 'answers 201 to a trigger but never stores the instance (a queue that drops it)', caughtBy: 'ensure_resource_availability' },
  'instance-listed-under-every-workflow': { what: 'lists an account’s instances under every workflow, not only the one that started them', caughtBy: 'resource_consistency' },
  'trigger-inputs-not-persisted': { what: 'answers instances with empty `trigger_inputs`: the inputs sent are not kept', caughtBy: 'resource_consistency' },
  'started-at-without-offset': { what: 'answers `started_at` without its UTC offset (`2026-01-01T10:00:00.000`)', caughtBy: 'response_schema_conformance' },
  'trigger-event-type-outside-const': { what: 'answers `trigger_event_type: WEBHOOK`, where the spec’s const is HTTP', caughtBy: 'response_schema_conformance' },
  'auth-ignored-on-cancel': { what: 'cancels an instance without checking the token', caughtBy: 'ignored_auth' },
  'trigger-without-name-accepted': { what: 'accepts a trigger without the required `instance_name`', caughtBy: 'negative_data_rejection' },
  'duration-as-string': { what: 'answers `response_duration_ms` as a string ("1")', caughtBy: 'response_schema_conformance' },
  'errors-as-json': { what: 'labels its error documents application/json where the spec declares application/problem+json', caughtBy: 'content_type_conformance' },
  'cancel-crashes-twice': { what: 'fails (500) when an instance is canceled a second time, instead of 409', caughtBy: 'not_a_server_error' },
  'trigger-answers-200': { what: 'answers a trigger 200, where the spec declares 201', caughtBy: 'status_code_conformance' },
  'auth-ignored-on-trigger': { what: 'starts an instance without checking the token', caughtBy: 'ignored_auth' },
  'error-code-as-number': { what: 'answers its errors’ `code` as a number (404) where the Error declares a string', caughtBy: 'response_schema_conformance' },
  'http-method-lower-case': { what: 'answers `trigger_http_config.method` as `post`, outside its enum', caughtBy: 'response_schema_conformance' },
  'pause-twice-crashes': { what: 'fails (500) when a paused workflow is paused again (a unique key in its table)', caughtBy: 'not_a_server_error' },
  'account-id-not-uuid': { what: 'answers a workflow’s `account_id` as the account’s internal number (`4711`), not its UUID', caughtBy: 'response_schema_conformance' },
  'resume-answers-204': { what: 'answers a resume 204 with no body, where the spec declares 200 with the state', caughtBy: 'status_code_conformance' },
  'cancel-always-conflicts': { what: 'answers 409 "already canceled" to every cancel, the first one too: no instance can be canceled', caughtBy: 'positive_data_acceptance' },
  'instance-steps-as-text': { what: 'answers one instance’s `total_steps` as a string ("3"): only its read by id, which names an instance a trigger started', caughtBy: 'response_schema_conformance' },
};
