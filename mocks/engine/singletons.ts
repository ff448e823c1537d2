/**
 * The handlers of singleton documents (openapi/operations/collections.ts, `recogniseSingletons`): one document
 * per concrete path (`/users/7/profile`), kept in the store under the record that path names (`/users/{7}/profile`: store-names.ts). Until a client writes
 * it, a read answers the spec's examples as any stateless operation does; after a PUT (or PATCH),
 * what was written, shown as the read's success schema declares (never a writeOnly property);
 * DELETE forgets it. Under a record, the record must exist (404 otherwise, checked again by the
 * store's create of the document) and its deletion takes the document with it (./stateful.ts).
 */
import { firstJson } from '../../openapi/media-types.js';
import { type Singleton, type SingletonRole } from '../../openapi/operations/collections.js';
import { successOf, type CompiledContract, type ContractMediaType, type ContractOperation } from '../../openapi/operations/model.js';
import { Projector } from '../../openapi/schema/project.js';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import type { ParentRecord, ResourceStore, StoredRecord } from '../stores/store.js';
import type { MockHandler, RequestContext, RoutedOperation } from './context.js';
import { exampleAnswer } from './examples.js';
import { mergedJson, projection, recordOf, recordValue } from './records.js';
import { appliedJsonPatch } from './json-patch.js';
import { storeName } from './store-names.js';
import { filled, fillOf, isJsonPatch, parentGone, parentMissing, parentRecord, SINGLETON_KEY } from './stateful.js';

type Body = Record<string, unknown>;

export function singletonHandlers(singletons: ReadonlyMap<string, { role: SingletonRole; singleton: Singleton }>, contract: CompiledContract): Record<string, MockHandler> {
  const handlers: Record<string, MockHandler> = {};
  const projector = new Projector(contract.document);
  for (const [operationId, { role, singleton }] of singletons) {
    const operation = contract.operations.get(operationId);
    if (operation) handlers[operationId] = ROLES[role](singleton, answering(operation, singleton, contract.document, projector));
  }
  return handlers;
}

/** How an operation shows the document: its success status, and the properties its JSON schema declares (none: no body). */
interface Shown {
  status: number;
  properties: ReadonlySet<string> | undefined;
  /** Members its schema requires that no document holds (a readOnly `updatedAt`), as JSON members to add. */
  fill: string | undefined;
  media: ContractMediaType | undefined;
  projector: Projector;
}

function answering(operation: ContractOperation, singleton: Singleton, document: unknown, projector: Projector): Shown {
  const success = successOf(operation);
  const media = firstJson(success?.response.content);
  const properties = media && new Set([...media.propertySet].filter((name) => !singleton.writeOnly.has(name)));
  return { status: success?.status ?? 204, properties, fill: media && fillOf(media.object, document, singleton, properties), media, projector };
}

const ROLES: Record<SingletonRole, (singleton: Singleton, shown: Shown) => MockHandler> = {
  read: (singleton, shown) => async (c, exchange) => {
    const { mock } = exchange;
    const missing = await parentMissing(c, singleton, mock);
    if (missing) return missing;
    const stored = await mock.store.get(nameOf(singleton, c), SINGLETON_KEY);
    if (stored) return answer(shown, stored);
    // Never written: what the spec's examples say, as a stateless operation answers.
    const routed = exchange.operation as RoutedOperation;
    return { ...(await exampleAnswer(mock.engine.bodies, routed.contract, { example: exchange.prefer.example, mediaType: exchange.mediaType, route: routed })), stateful: false };
  },
  replace:
    (singleton, shown) =>
    async (c, { mock }) => {
      const missing = await parentMissing(c, singleton, mock);
      if (missing) return missing;
      const record = recordOf(c.request.requestBody as Body, SINGLETON_KEY, singleton.declared, c.request.bodyText);
      const params = c.request.params as Record<string, string>;
      if ((await written(mock.store, nameOf(singleton, c), record, parentRecord(singleton, params))) === 'parent-missing') return parentGone(singleton, params);
      return answer(shown, record);
    },
  patch:
    (singleton, shown) =>
    async (c, { mock }) => {
      const missing = await parentMissing(c, singleton, mock);
      if (missing) return missing;
      const name = nameOf(singleton, c);
      const stored = await mock.store.get(name, SINGLETON_KEY);
      // A patch applies to what is there: nothing written yet is the empty document.
      const current = stored ? recordValue(stored) : {};
      let value: Body;
      if (isJsonPatch(c)) {
        const outcome = appliedJsonPatch(current, c.request.requestBody);
        if ('problem' in outcome) return rejected(reject('INVALID_REQUEST_BODY', { schema: 'JSON Patch', problems: [outcome.problem] }));
        value = parseExactJson(outcome.json) as Body;
      } else value = parseExactJson(mergedJson(current, c.request.requestBody as Body, singleton.declared)) as Body;
      if (!singleton.body.validate?.(value)) {
        const { sentences, more } = describeProblems(singleton.body.validate?.errors, { root: value });
        return rejected(reject('INVALID_REQUEST_BODY', { schema: 'the document', problems: sentences.map((s) => `after the update, ${s}`), more }));
      }
      const record = { key: SINGLETON_KEY, json: projection(value, singleton.declared) };
      const params = c.request.params as Record<string, string>;
      if ((await written(mock.store, name, record, parentRecord(singleton, params))) === 'parent-missing') return parentGone(singleton, params);
      return answer(shown, record);
    },
  delete:
    (singleton, shown) =>
    async (c, { mock }) => {
      const missing = await parentMissing(c, singleton, mock);
      if (missing) return missing;
      await mock.store.delete(nameOf(singleton, c), SINGLETON_KEY);
      return { status: shown.status };
    },
};

function nameOf(singleton: Singleton, c: RequestContext): string {
  return storeName(singleton, c.request.params as Record<string, string>);
}

/**
 * Replaces the document, or creates it; a create that loses a race to another is a replace. The
 * admin route's PUT writes through it too. Under a record, the create is the store's only while
 * that record exists ('parent-missing': nothing written); a replace needs no check, as the record's
 * deletion deletes the document after the record.
 */
export async function written(store: ResourceStore, name: string, record: StoredRecord, parent?: ParentRecord): Promise<'written' | 'parent-missing'> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await store.replace(name, record)) === 'replaced') return 'written';
    const outcome = await store.create(name, record, parent);
    if (outcome === 'created') return 'written';
    if (outcome === 'parent-missing') return outcome;
  }
  return 'written';
}

function answer(shown: Shown, record: StoredRecord): Answer {
  if (!shown.properties) return { status: shown.status };
  const body = filled(projection(recordValue(record), shown.properties), shown.fill);
  const media = shown.media as ContractMediaType;
  const projected = shown.projector.project(parseExactJson(body), media.inlined, media.validate);
  if (!projected) return { status: shown.status, body };
  return projected.problems ? { status: shown.status, body: projected.json, mockBug: projected.problems } : { status: shown.status, body: projected.json };
}
