/**
 * Sequences on records an operation beside a list makes (openapi/operations/dependencies.ts: a
 * trigger answering `instance_id` beside `GET …/instances`), which the CRUD rule does not see as a
 * collection: the record is made, read back (every property sent shown as sent), found in its
 * list and absent from the same list below another parent; each operation below it (a cancel) is
 * sent without a credential, then with one, then once more (a repeat may be refused, never crash).
 * The parent's values (`{workflowId}`) come from earlier answers; the runner gives them.
 * Plans are pure (the graph and the operations in); the run sends through the sequences' sender.
 */
import type { CompiledContract } from '../openapi/operations/model.js';
import { dependencyGraph } from '../openapi/operations/dependencies.js';
import { isObject } from '../openapi/schema/resolve.js';
import { exactInteger } from '../openapi/schema/exact-json.js';
import { suiteContractOf, type SuiteContract } from './spec-contract.js';
import type { StepSender } from './sequences.js';
import { listItems, validRecordBody } from './sequences.js';
import type fc from 'fast-check';

export interface ProducedPlan {
  /** The list path (`/v1/accounts/{accountId}/workflows/{workflowId}/instances`): what the steps name as their collection. */
  collection: string;
  noun: string;
  /** The operation making a record, and its answer's property naming it (`instance_id`). */
  producer: SuiteContract;
  property: string;
  /** The item path's parameter naming the record (`instanceId`). */
  itemParameter: string;
  /** The property naming a record in the read's and the list's answers (`id`), when they declare one. */
  identity: string;
  read?: SuiteContract;
  list?: SuiteContract;
  /** Operations below the record's item path (a cancel). */
  actions: SuiteContract[];
  /** The path parameter naming the parent a list answered (`workflowId`), and that list: the record is looked for below another one. */
  parent?: { parameter: string; producer: string };
}

/** The produced records of `compiled` whose read, list or actions are under test (the producer may not be: a client makes what it needs). */
export function planProduced(compiled: CompiledContract, operations: readonly SuiteContract[], contractOf: (operationId: string) => SuiteContract | undefined): ProducedPlan[] {
  const graph = dependencyGraph(compiled);
  const tested = new Set(operations.map((o) => o.operationId));
  const plans = new Map<string, ProducedPlan>();
  for (const entry of graph) {
    for (const dependency of entry.consumes) {
      if (dependency.in !== 'path' || (dependency.source !== 'record' && dependency.source !== 'parent') || dependency.collection !== undefined) continue;
      const made = compiled.operations.get(dependency.producer);
      if (made?.method !== 'post') continue;
      const key = `${dependency.producer} ${dependency.parameter}`;
      let plan = plans.get(key);
      if (!plan) {
        const producer = contractOf(dependency.producer);
        const itemPath = entry.path.slice(0, entry.path.indexOf(`{${dependency.parameter}}`) + dependency.parameter.length + 2);
        const collection = itemPath.slice(0, itemPath.lastIndexOf('/'));
        if (!producer?.requestBody) continue;
        const list = operations.find((o) => o.method === 'GET' && o.path.replace(/\/$/, '') === collection);
        const parentDependency = graph
          .find((e) => e.operationId === dependency.producer)
          ?.consumes.filter((d) => d.in === 'path' && compiled.operations.get(d.producer)?.method === 'get')
          .pop();
        plan = {
          collection,
          noun: collection.split('/').pop() ?? collection,
          producer,
          property: dependency.property,
          itemParameter: dependency.parameter,
          identity: 'id',
          actions: [],
          ...(list ? { list } : {}),
          ...(parentDependency ? { parent: { parameter: parentDependency.parameter, producer: parentDependency.producer } } : {}),
        };
        plans.set(key, plan);
      }
      const operation = tested.has(entry.operationId) ? operations.find((o) => o.operationId === entry.operationId) : undefined;
      if (!operation) continue;
      if (dependency.source === 'record' && operation.method === 'GET') plan.read = operation;
      else if (dependency.source === 'parent' && operation.method === 'POST') plan.actions.push(operation);
    }
  }
  return [...plans.values()].filter((plan) => plan.read || plan.list || plan.actions.length);
}

/** An operation as the suite sends it, under test or not (undefined when the suite cannot send it). */
export function sendableOf(compiled: CompiledContract, operations: readonly SuiteContract[]): (operationId: string) => SuiteContract | undefined {
  return (operationId) => {
    const tested = operations.find((o) => o.operationId === operationId);
    if (tested) return tested;
    try {
      return suiteContractOf(compiled, operationId);
    } catch {
      return undefined;
    }
  };
}

/** A read below a record another operation makes or a list answers, sent with that record missing on purpose: the spec declares 404 for it. */
export interface MissingParent {
  operation: SuiteContract;
  /** The path parameter left naming no record (the deepest one naming a record). */
  parameter: string;
  /** The path up to that parameter's collection, for the report. */
  collection: string;
}

/**
 * The GETs under test that declare 404 and whose path names a record an earlier answer gives (by the
 * graph), other than the reads the sequences judge: each is sent once with the deepest such record
 * missing on purpose (`GET …/workflows/{workflowId}/trigger-requirements` of a workflow never listed),
 * the others as earlier answers gave them.
 */
export function planMissingParents(compiled: CompiledContract, operations: readonly SuiteContract[], judgedReads: ReadonlySet<string>): MissingParent[] {
  const graph = dependencyGraph(compiled);
  return operations.flatMap((operation) => {
    if (operation.method !== 'GET' || !operation.responses.has(404) || judgedReads.has(operation.operationId)) return [];
    const consumed = graph.find((e) => e.operationId === operation.operationId)?.consumes.filter((d) => d.in === 'path') ?? [];
    const deepest = consumed.sort((a, b) => operation.path.indexOf(`{${b.parameter}}`) - operation.path.indexOf(`{${a.parameter}}`))[0];
    if (!deepest) return [];
    const at = operation.path.indexOf(`{${deepest.parameter}}`);
    return [{ operation, parameter: deepest.parameter, collection: operation.path.slice(0, Math.max(at - 1, 0)) }];
  });
}

/** The reads the sequences already judge on a record never made. */
export function judgedReads(plans: ReadonlyArray<{ read?: SuiteContract }>, produced: readonly ProducedPlan[]): Set<string> {
  return new Set([...plans, ...produced].flatMap((plan) => (plan.read ? [plan.read.operationId] : [])));
}

export interface ProducedContext {
  send: StepSender;
  sample: <T>(arbitrary: fc.Arbitrary<T>) => T;
  /** The values of the producer's path parameters (JSON text by name): those earlier answers gave, else valid ones drawn once. */
  path: ReadonlyMap<string, string>;
  /** Another value of the parent parameter an earlier answer gave (another workflow), when there is one. */
  otherParent?: string;
  /** The body properties naming other records, for the producer's body. */
  given?: ReadonlyMap<string, string>;
  /** An id never made, as JSON text. */
  missing?: string;
}

export async function runProduced(plan: ProducedPlan, context: ProducedContext): Promise<void> {
  const body = plan.producer.requestBody;
  if (!body) return;
  const made = validRecordBody(body, plan.property, undefined, 'made', context.sample, context.given);
  if (!made) return;
  const step = { collection: plan.collection, identity: plan.identity };
  const answer = await context.send({
    operation: plan.producer,
    step: { kind: 'create', ...step, record: made.value },
    description: `makes a record of ${plan.collection} (${plan.producer.operationId}, its answer naming it by ${plan.property})`,
    expect: 'accepted',
    body: made.text,
    parameters: context.path,
  });
  const id = answer.status !== undefined && answer.status >= 200 && answer.status < 300 && isObject(answer.body) ? keyOf(answer.body, plan.property) : undefined;
  if (id === undefined) return;
  const on = new Map([...context.path, [plan.itemParameter, id]]);
  if (plan.read) {
    await context.send({
      operation: plan.read,
      step: { kind: 'read', ...step, id, record: made.value },
      description: `reads the record ${plan.producer.operationId} just made: it must be there, showing what was sent`,
      expect: 'accepted',
      parameters: on,
    });
  }
  if (plan.list) {
    await context.send({
      operation: plan.list,
      step: { kind: 'list', ...step, contains: [id] },
      description: `lists ${plan.collection}: it must hold the record just made`,
      expect: 'provider-choice',
      parameters: context.path,
    });
    if (plan.parent && context.otherParent !== undefined) {
      await context.send({
        operation: plan.list,
        step: { kind: 'list', ...step, foreign: [id] },
        description: `lists ${plan.collection} below another ${plan.parent.parameter} (${context.otherParent}): the record made below the first one must not be in it`,
        expect: 'provider-choice',
        parameters: new Map([...context.path, [plan.parent.parameter, context.otherParent]]),
      });
    }
  }
  if (plan.read && context.missing !== undefined) {
    await context.send({
      operation: plan.read,
      step: { kind: 'read-missing', ...step, id: context.missing },
      description: `reads a record of ${plan.collection} that was never made: it must be 404`,
      expect: 'provider-choice',
      parameters: new Map([...context.path, [plan.itemParameter, context.missing]]),
    });
  }
  for (const action of plan.actions) {
    // Without a credential first, on a record that exists: a success there is a credential ignored, whatever 404 would hide.
    let anonymous: number | undefined;
    if (action.security.kind !== 'none') {
      anonymous = (
        await context.send({
          operation: action,
          step: { kind: 'action', ...step, id },
          description: `${action.operationId} on the record just made, without a credential: it must be refused`,
          expect: 'unauthenticated',
          parameters: on,
          anonymous: true,
          ...(action.requestBody ? { body: validRecordBody(action.requestBody, '', undefined, 'made', context.sample)?.text } : {}),
        })
      ).status;
    }
    const actionBody = action.requestBody ? validRecordBody(action.requestBody, '', undefined, 'made', context.sample)?.text : undefined;
    if (action.requestBody && actionBody === undefined) continue;
    const done = anonymous !== undefined && anonymous >= 200 && anonymous < 300;
    await context.send({
      operation: action,
      step: { kind: 'action', ...step, id },
      description: `${action.operationId} on the record just made`,
      // The anonymous request already did it: what a second one answers is the provider's choice.
      expect: done ? 'provider-choice' : 'accepted',
      parameters: on,
      ...(actionBody === undefined ? {} : { body: actionBody }),
    });
    await context.send({
      operation: action,
      step: { kind: 'action', ...step, id },
      description: `${action.operationId} on the same record again: it may be refused (409), never fail`,
      expect: 'provider-choice',
      parameters: on,
      ...(actionBody === undefined ? {} : { body: actionBody }),
    });
  }
}

/** The property naming the record in an answer, as JSON text (a number's exact digits). */
function keyOf(body: Record<string, unknown>, property: string): string | undefined {
  const value = body[property];
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return exactInteger(body, property)?.toString() ?? (Number.isInteger(value) ? String(value) : undefined);
  return undefined;
}

/** The identities a list answer holds under `property` (JSON text), in order. */
export function listedKeys(body: unknown, property: string): string[] {
  const items = listItems(body) ?? (isObject(body) ? (Object.values(body).find(Array.isArray) as unknown[] | undefined) : undefined) ?? [];
  return items.flatMap((item) => (isObject(item) ? [keyOf(item, property)].filter((k): k is string => k !== undefined) : []));
}
