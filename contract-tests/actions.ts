/**
 * Actions whose answer names a record no collection's create makes (dependencies.ts
 * producedValues: DocuSign Maestro's `POST …/actions/trigger`, answering the `instance_id` of
 * the instance it started). A client calls the action and names what it answered; so does the
 * suite, twice over:
 * - once before the cases (callActions, not judged), so the operations on that record (the read
 *   and the cancel of the instance) are sent to one that exists, in the account and workflow it
 *   was started in;
 * - once after them as a short sequence (runActionSequences, each step judged): the action, then
 *   the read of what it answered, which must be there at once (ensure_resource_availability).
 *   Not yet the list beside the read holding it, nor a read of one never made answered 404: the
 *   mock keeps no record of what an action makes (it answers such reads from the spec), so those
 *   steps would fail our own mock on the same spec; they wait for the mock to keep them.
 * The runner gives the sender; this module decides what is sent.
 */
import fc from 'fast-check';
import type { ProducedValue } from './dependencies.js';
import { validParameterValues } from './generators/parameters.js';
import type { PinnedRecord } from './generated.js';
import type { ProducedAttempt } from './parent-coverage.js';
import { createdKey, validRecordBody, type StepRequest, type StepSender } from './sequences.js';
import type { SuiteContract } from './spec-contract.js';

/** What the action calls are given: the operations under test, a sender, and the values earlier answers gave. */
export interface ActionContext {
  operations: readonly SuiteContract[];
  send: StepSender;
  seed: number;
  /** Path values lists answered (the workflow `{workflowId}` names), per operation, JSON text by name. */
  given: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Body properties naming other records, per operation. */
  bodies: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Records pinned before the cases, per operation (a site for `POST /sites/{site_id}/deploys`). */
  records?: ReadonlyMap<string, PinnedRecord>;
}

/** The action's request as a client writes it: its path named by the records pinned for it, values lists answered, else valid values; a valid body. */
function actionRequest(action: ProducedValue, context: ActionContext, sample: <T>(arbitrary: fc.Arbitrary<T>) => T): { step: StepRequest; values: Map<string, string> } | { failed: string } {
  const producer = context.operations.find((o) => o.operationId === action.producer);
  if (!producer) return { failed: `${action.producer} is not under test` };
  const values = new Map<string, string>();
  for (const [parameter, literal] of validParameterValues(producer, sample, false)) {
    if (parameter.in === 'path' && literal !== undefined) values.set(parameter.name, context.given.get(producer.operationId)?.get(parameter.name) ?? literal);
  }
  const record = context.records?.get(producer.operationId);
  if (record) for (const [name, id] of [...(record.scope ?? []), ...(record.parents ?? []).map((p) => [p.parameter, p.id] as const), [record.parameter, record.id] as const]) values.set(name, id);
  const body = producer.requestBody && !producer.requestBody.form ? validRecordBody(producer.requestBody, '', undefined, 'made', sample, context.bodies.get(producer.operationId)) : undefined;
  if ((producer.requestBody && !body) || producer.rawBody) return { failed: `${producer.operationId} takes no request body the suite writes` };
  const about = action.consumers.map((c) => `{${c.parameter}} of ${c.operationId}`).join(', ');
  return {
    values,
    step: {
      operation: producer,
      step: { kind: 'create', collection: producer.path, identity: action.property },
      description: `calls ${producer.operationId} for ${about}`,
      expect: 'provider-choice',
      ...(body ? { body: body.text } : {}),
      parameters: values,
    },
  };
}

/** The value an action's answer names (JSON text), or why there is none. */
async function callOnce(action: ProducedValue, step: StepRequest, send: StepSender): Promise<{ value: string } | { failed: string }> {
  const answer = await send(step);
  if (answer.status === undefined) return { failed: `${action.producer} was not answered` };
  if (answer.status < 200 || answer.status > 299) return { failed: `${action.producer} answered ${answer.status} to a valid request` };
  const value = createdKey({ body: answer.body }, { collection: step.step.collection, identity: action.property, identityType: 'other' });
  return value === undefined ? { failed: `${action.producer}'s answer named no ${action.property}` } : { value };
}

/** The values (JSON text by name) of `values` that `operation`'s path also names. */
function sharedPath(operation: SuiteContract | undefined, values: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...values].filter(([name]) => operation?.parameters.some((p) => p.in === 'path' && p.name === name)));
}

/**
 * Calls each action once before the cases (not judged: the action's own cases are), and gives
 * each operation on what it made the answered value and the action's other path values its path
 * shares (the account and workflow an instance was started in).
 */
export async function callActions(actions: readonly ProducedValue[], context: ActionContext): Promise<{ parameters: Map<string, Map<string, string>>; attempts: ProducedAttempt[] }> {
  const parameters = new Map<string, Map<string, string>>();
  const attempts: ProducedAttempt[] = [];
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (context.seed + 4_099 * ++draws) | 0, numRuns: 1 })[0] as T;
  // An action whose own path takes what another answers (a session of an agent runner) goes after it, and is given it.
  for (const action of inOrder(actions)) {
    const request = actionRequest(action, { ...context, given: withLearnt(context.given, parameters) }, sample);
    const made = 'failed' in request ? request : { ...(await callOnce(action, request.step, context.send)), values: request.values };
    if ('failed' in made) {
      attempts.push({ producer: action.producer, property: action.property, failed: made.failed });
      continue;
    }
    attempts.push({ producer: action.producer, property: action.property, value: made.value });
    for (const { operationId, parameter } of action.consumers) {
      const consumer = context.operations.find((o) => o.operationId === operationId);
      parameters.set(operationId, new Map([...(parameters.get(operationId) ?? []), ...sharedPath(consumer, made.values), [parameter, made.value]]));
    }
  }
  return { parameters, attempts };
}

/** The actions, each after those answering what its own path takes (bounded: a cycle keeps the document's order). */
function inOrder(actions: readonly ProducedValue[]): ProducedValue[] {
  const feeds = (a: ProducedValue, b: ProducedValue): boolean => a !== b && a.consumers.some((c) => c.operationId === b.producer);
  const ordered: ProducedValue[] = [];
  const left = [...actions];
  while (left.length) {
    const next = left.find((b) => !left.some((a) => feeds(a, b))) ?? (left[0] as ProducedValue);
    ordered.push(next);
    left.splice(left.indexOf(next), 1);
  }
  return ordered;
}

/** The values lists answered, with what the actions called so far answered over them. */
function withLearnt(given: ReadonlyMap<string, ReadonlyMap<string, string>>, learnt: ReadonlyMap<string, ReadonlyMap<string, string>>): Map<string, ReadonlyMap<string, string>> {
  const merged = new Map<string, ReadonlyMap<string, string>>(given);
  for (const [operationId, values] of learnt) merged.set(operationId, new Map([...(given.get(operationId) ?? []), ...values]));
  return merged;
}

/** After the cases, each action with a read under test as a sequence, every step judged: the action (accepted), then the read of what it answered (available at once). */
export async function runActionSequences(actions: readonly ProducedValue[], context: ActionContext): Promise<void> {
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (context.seed + 5_003 * ++draws) | 0, numRuns: 1 })[0] as T;
  const find = (operationId: string | undefined): SuiteContract | undefined => context.operations.find((o) => o.operationId === operationId);
  for (const action of actions) {
    const read = find(action.read?.operationId);
    if (!read || !action.read) continue;
    const request = actionRequest(action, context, sample);
    if ('failed' in request) continue;
    const { parameter } = action.read;
    const collection = read.path.replace(/\/$/, '').slice(0, -`/{${parameter}}`.length);
    const noun = `record ${action.producer} made`;
    const step = {
      ...request.step,
      step: { kind: 'create' as const, collection, identity: action.property, named: true },
      expect: 'accepted' as const,
      description: `calls ${action.producer}: its answer's ${action.property} names a new record`,
    };
    const made = await callOnce(action, step, context.send);
    if ('failed' in made) continue;
    const under = sharedPath(read, request.values);
    await context.send({
      operation: read,
      step: { kind: 'read', collection, identity: parameter, id: made.value },
      description: `reads the ${noun} ({${parameter}} ${made.value})`,
      expect: 'accepted',
      parameters: new Map([...under, [parameter, made.value]]),
    });
  }
}
