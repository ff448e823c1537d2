/**
 * Stateful sequences: for each collection of the spec — found by the same CRUD rule the mock
 * serves (openapi/operations/collections.ts: a POST taking a JSON object body, the GET list on its path,
 * GET/PUT/PATCH/DELETE on its item path, the identity sent or assigned) — create a record, read it back, find it in the
 * list (paging followed), list with the list's limit and filters, update it and read the update,
 * delete it, then read it (404) and list it (absent); and read an id never created (404). Each
 * step is a case the checks judge: `ensure_resource_availability`, `resource_consistency`,
 * `list_honours_parameters`, `use_after_free` and `missing_resource_not_found` (sequence-checks.ts).
 * Everything created is deleted again, so the suite reruns cleanly against a long-lived provider.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { envelopedMedia, envelopeOf, NEXT_CURSOR_NAMES, recogniseCollections, singular, type Collection, type ListShape } from '../openapi/operations/collections.js';
import { listedItems } from '../openapi/operations/list-filters.js';
import type { CompiledContract } from '../openapi/operations/model.js';
import { firstJson } from '../openapi/media-types.js';
import { exactInteger, parseExactJson } from '../openapi/schema/exact-json.js';
import { isObject } from '../openapi/schema/resolve.js';
import { INT64_MAX, type IdSource } from '../fixtures/index.js';
import { freshIdentity, freshKeyMaker } from './generators/identity.js';
import { validParameterValues } from './generators/parameters.js';
import { integerBounds, validLiterals } from './generators/schema-values.js';
import type { CaseExpectation, SequenceStep } from './model.js';
import { evaluateLinkValue, type Exchange } from './runtime-expressions.js';
import type { JsonSchema, RequestBody, RequestProperty, SuiteContract, SuiteParameter } from './spec-contract.js';
import { envelopedBody, keySchemaOf, typesOf } from './spec-contract.js';

/** The operations of one collection the run tests. */
export interface SequencePlan {
  collection: string;
  noun: string;
  identity: string;
  /** An object identity's member that the item path carries (`value` of `ehr_id: {value}`): the key is that member's value (collections.ts, Identity.member). */
  identityMember?: string;
  identityType: 'integer' | 'string' | 'other';
  /** The provider assigns the identity (the create body does not declare it): the create sends none and reads it from the answer. */
  assigned: boolean;
  /** No schema declares the identity: it shows only in the item path (a create's `Location`), so a list's records cannot be told apart. */
  identityInPathOnly?: boolean;
  /** The list's items do not declare the identity (Alertmanager's silences list `id`, its create answers `silenceID`): which records a list holds cannot be told. */
  identityUnlisted?: boolean;
  /** The list's page-size parameter (`limit`), and its filters: query parameter → record property. */
  limit?: string;
  /** The list's offset parameter (`offset`), or its page-number one (`page`) and the first page's number. */
  offset?: string;
  page?: { parameter: string; first: 0 | 1 };
  /** The list's cursor parameter (`cursor`, `page_token` …): each page's answer names the next page's value (`next_cursor` …). */
  cursor?: string;
  filters: ReadonlyMap<string, string>;
  /** The properties the list's items declare (what a list answer shows of a record); undefined when they declare none. */
  listShows?: ReadonlySet<string>;
  /** The `default` the stored schema gives a filtered property: a record without the property has it (as the mock matches). */
  filterDefaults?: ReadonlyMap<string, unknown>;
  /** The most records one list answer holds (the array's maxItems, or the default page size). */
  pageCap?: number;
  /** The member of a wrapped list answer holding the records, as the spec's list schema says (it may declare other arrays). */
  wrapper?: string;
  create: SuiteContract;
  read?: SuiteContract;
  list?: SuiteContract;
  update?: SuiteContract;
  remove?: SuiteContract;
  /** The item path's parameter naming the record (`paymentId` of `/bookings/{bookingId}/payments/{paymentId}`). */
  itemParameter?: string;
  /** The create names the record in its own path, at `itemParameter` (collections.ts, Collection.atTarget): the suite chooses the key. */
  atTarget?: true;
  /** A nested collection's parent: a parent record is created first and named by `parameter` in every step's path. */
  parent?: ParentPlan;
  /**
   * The path parameters no operation creates that the records are kept apart by (collections.ts): one
   * value each, drawn once, names the same scope in every step (parent included), or a read finds nothing.
   */
  scope?: readonly string[];
  /** The create answer's OpenAPI `links` to the read, update and delete (they choose those operations and their parameters). */
  links?: Partial<Record<'read' | 'update' | 'remove', PlanLink>>;
  /** An enveloped collection's (`{"article": {...}}`): its records are written, read and echoed inside the member. */
  envelope?: EnvelopePlan;
  /** The create answers what it made as a list (collections.ts, Collection.createdAs): the record is its item. */
  createdAs?: ListShape;
  /** The create answers only the new key, under this name (collections.ts, Collection.keyAnswered). */
  keyAnswered?: string;
}

/**
 * The envelope a collection's create (and its update, when its body is the same envelope) wraps the
 * record in, as the mock's rule finds it (collections.ts envelopeOf): the member, and the bodies the
 * record is written in inside it. A read's or create's answer holds the record in the same member.
 */
export interface EnvelopePlan {
  member: string;
  create: RequestBody;
  update?: RequestBody;
}

/** The collection a nested one's records belong to (`/bookings` of `/bookings/{bookingId}/payments`). */
export interface ParentPlan {
  collection: string;
  noun: string;
  /** The path parameter of the nested paths that names the parent record. */
  parameter: string;
  identity: string;
  identityMember?: string;
  identityType: 'integer' | 'string' | 'other';
  assigned: boolean;
  create: SuiteContract;
  remove?: SuiteContract;
  envelope?: EnvelopePlan;
  createdAs?: ListShape;
  keyAnswered?: string;
}

/** A link of the create's answer: its name, and the parameters it passes (runtime expressions or constants). */
export interface PlanLink {
  name: string;
  parameters: ReadonlyMap<string, unknown>;
}

/** The collections of `compiled` whose create operation is under test, with their other operations under test. */
export function planSequences(compiled: CompiledContract, operations: readonly SuiteContract[]): SequencePlan[] {
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  const { collections, stateful } = recogniseCollections(compiled);
  const plans: SequencePlan[] = [];
  for (const collection of collections) {
    const create = byId.get(collection.create.operationId);
    if (!create?.requestBody) continue;
    // A nested collection needs a parent record first: one level, the parent's create under test.
    let parent: ParentPlan | undefined;
    if (collection.parent) {
      const owner = collection.parent.collection;
      const parentCreate = byId.get(owner.create.operationId);
      // A parent created at its own path is not made for a child: its sequence judges it.
      if (!parentCreate?.requestBody || owner.parent || owner.atTarget) continue;
      const parentEnvelope = envelopePlanOf(compiled, owner, parentCreate);
      const parentRemove = [...stateful].find(([operationId, op]) => op.collection === owner && op.role === 'delete' && byId.has(operationId))?.[0];
      parent = {
        collection: owner.path,
        noun: owner.noun,
        parameter: collection.parent.parameter,
        identity: owner.identity.property,
        ...optional('identityMember', owner.identity.member),
        identityType: owner.identity.type,
        assigned: owner.identity.assigned !== undefined && owner.identity.optional !== true,
        create: parentCreate,
        ...optional('remove', parentRemove === undefined ? undefined : byId.get(parentRemove)),
        ...optional('envelope', parentEnvelope),
        ...optional('createdAs', owner.createdAs),
        ...optional('keyAnswered', owner.keyAnswered),
      };
    }
    // A collection with only a create has nothing to read back: no sequence (the body walk covers the create).
    const listPlan = [...stateful].find(([operationId, op]) => op.collection === collection && op.role === 'list' && byId.has(operationId))?.[1].list;
    const role = (wanted: string): SuiteContract | undefined => {
      for (const [operationId, op] of stateful) if (op.collection === collection && op.role === wanted && byId.has(operationId)) return byId.get(operationId);
      return undefined;
    };
    const links = createLinks(compiled, collection.create.operationId, operations);
    const update = links.update?.operation ?? role('replace') ?? role('patch');
    const envelope = envelopePlanOf(compiled, collection, create, update);
    const plan: SequencePlan = {
      collection: collection.path,
      noun: collection.noun,
      identity: collection.identity.property,
      ...optional('identityMember', collection.identity.member),
      identityType: collection.identity.type,
      // An optional identity the client may send: the suite sends a fresh one per record, as for one it must send.
      assigned: collection.identity.assigned !== undefined && collection.identity.optional !== true,
      ...optional('identityInPathOnly', collection.identity.inPathOnly),
      ...optional('identityUnlisted', listPlan !== undefined && !listPlan.items.has(collection.identity.property) ? true : undefined),
      ...optional('limit', listPlan?.paging.size),
      ...optional('offset', listPlan?.paging.offset),
      ...optional('page', listPlan?.paging.page === undefined ? undefined : { parameter: listPlan.paging.page, first: listPlan.paging.firstPage }),
      ...optional('cursor', listPlan?.paging.cursor),
      filters: listPlan?.filters ?? new Map(),
      ...optional('listShows', listPlan?.items.size ? listPlan.items : undefined),
      ...optional('filterDefaults', defaultsOf(collection.stored, listPlan?.filters)),
      ...optional('itemParameter', collection.itemParameter),
      ...optional('atTarget', collection.atTarget === undefined ? undefined : (true as const)),
      ...optional('parent', parent),
      ...optional('scope', collection.scope),
      ...optional('pageCap', smallest(listPlan?.maxItems, listPlan?.paging.defaultSize)),
      ...optional('wrapper', listPlan?.shape.kind === 'wrapped' ? listPlan.shape.property : undefined),
      create,
      ...optional('read', links.read?.operation ?? role('read')),
      ...optional('list', role('list')),
      ...optional('update', update),
      ...optional('remove', links.remove?.operation ?? role('delete')),
      ...(Object.keys(links).length ? { links: Object.fromEntries(Object.entries(links).map(([step, link]) => [step, { name: link.name, parameters: link.parameters }])) } : {}),
      ...optional('envelope', envelope),
      ...optional('createdAs', collection.createdAs),
      ...optional('keyAnswered', collection.keyAnswered),
    };
    if (plan.read || plan.list) plans.push(plan);
  }
  return plans;
}

/**
 * The list's filters the sequence judges (list_honours_parameters; applicability.ts promises the check
 * for these alone): a query parameter naming a record property that the create sends (required, or a
 * plain string: what validRecordBody writes), a string or a boolean the parameter takes, so that records
 * matching and not matching it can be made; and that the list's items show, since a record an answer
 * does not show the property of cannot be judged (a correct provider may leave out what its schema
 * does not declare: Lago's invoices are filtered by external_customer_id and answered with a customer object).
 */
export function judgedFilters(plan: SequencePlan): Array<{ parameter: SuiteParameter; property: RequestProperty }> {
  const body = plan.envelope?.create ?? plan.create.requestBody;
  if (!plan.list || !body) return [];
  return plan.list.parameters.flatMap((parameter) => {
    const name = plan.filters.get(parameter.name);
    const property = name === undefined || parameter.in !== 'query' ? undefined : body.properties.find((p) => p.name === name);
    if (!property || property.schema.readOnly === true || (plan.listShows !== undefined && !plan.listShows.has(property.name))) return [];
    const types = typesOf(property.schema);
    const sent = property.required || (types.includes('string') && plainString(property.schema));
    const boolean = types.includes('boolean') && (typesOf(parameter.schema).includes('array') || typesOf(parameter.schema).includes('boolean'));
    return sent && (types.includes('string') || boolean) ? [{ parameter, property }] : [];
  });
}

/**
 * The envelope of an enveloped collection (the mock's rule: collections.ts), with the create's body
 * inside it and the update's when its own body is that envelope; undefined for any other collection.
 */
export function envelopePlanOf(compiled: CompiledContract, collection: Collection, create: SuiteContract, update?: SuiteContract): EnvelopePlan | undefined {
  const member = collection.envelope;
  if (member === undefined || !create.requestBody) return undefined;
  const updateMedia = update?.requestBody && !update.requestBody.form ? firstJson(compiled.operations.get(update.operationId)?.requestBody?.content) : undefined;
  const updateInner = updateMedia && envelopeOf(updateMedia) === member ? envelopedMedia(updateMedia, member, compiled.document) : undefined;
  return {
    member,
    create: envelopedBody(create.requestBody, collection.body),
    ...(updateInner && update?.requestBody ? { update: envelopedBody(update.requestBody, updateInner) } : {}),
  };
}

/** A record's body text wrapped in its envelope's member (`{"article":<text>}`), or the text itself. */
export function wrapRecord(text: string, member: string | undefined): string {
  return member === undefined ? text : `{${JSON.stringify(member)}:${text}}`;
}

/** The record an answer holds: inside the envelope's member for an enveloped collection, else the body itself. */
export function recordIn(body: unknown, member: string | undefined): unknown {
  return member === undefined ? body : isObject(body) ? body[member] : undefined;
}

/**
 * The record a create's answer holds: the first item of the list it answers what it made in (`[{...}]`,
 * `{"groups": [{...}]}`: Collection.createdAs), else the record inside its envelope, else the body itself.
 * A create answering only the key by its own name (`{"silenceID": …}`) holds a record of its identity alone.
 */
export function createdRecordIn(
  body: unknown,
  plan: { envelope?: Pick<EnvelopePlan, 'member'> | undefined; createdAs?: ListShape | undefined; keyAnswered?: string | undefined; identity: string; identityMember?: string | undefined },
): unknown {
  if (plan.keyAnswered !== undefined) {
    const key = isObject(body) ? body[plan.keyAnswered] : undefined;
    if (key === undefined) return undefined;
    return { [plan.identity]: plan.identityMember === undefined ? key : { [plan.identityMember]: key } };
  }
  const shape = plan.createdAs;
  if (shape === undefined) return recordIn(body, plan.envelope?.member);
  const list = shape.kind === 'array' ? body : isObject(body) ? body[shape.property] : undefined;
  return Array.isArray(list) ? list[0] : undefined;
}

type LinkedStep = 'read' | 'update' | 'remove';

/**
 * The OpenAPI `links` of an operation's 2xx answers that lead to an operation under test, by the
 * step they serve (GET: read, PUT/PATCH: update, DELETE: remove; the first link per step). The
 * compiled model names each link's target (by operationId or operationRef: openapi/operations/links.ts).
 */
export function createLinks(compiled: CompiledContract, operationId: string, operations: readonly SuiteContract[]): Partial<Record<LinkedStep, PlanLink & { operation: SuiteContract }>> {
  const found: Partial<Record<LinkedStep, PlanLink & { operation: SuiteContract }>> = {};
  const operation = compiled.operations.get(operationId);
  if (!operation) return found;
  // Exact statuses ascending, then the 2XX range: the order a document's keys are read in.
  const successes = [...[...operation.responses].flatMap(([status, response]) => (typeof status === 'number' && status >= 200 && status < 300 ? [response] : [])), operation.ranges?.get('2XX')];
  for (const link of successes.flatMap((response) => response?.links ?? [])) {
    const target = operations.find((o) => o.operationId === link.operationId);
    const step: LinkedStep | undefined = target ? STEP_OF_METHOD[target.method] : undefined;
    if (!target || !step || found[step]) continue;
    const parameters = new Map<string, unknown>();
    for (const [key, expression] of link.parameters) {
      // `path.id` names the location too (a name used in two places); the suite's parameters are by name.
      const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
      parameters.set(qualified?.[2] ?? key, expression);
    }
    found[step] = { name: link.name, parameters, operation: target };
  }
  return found;
}

const STEP_OF_METHOD: Readonly<Record<string, LinkedStep>> = { GET: 'read', PUT: 'update', PATCH: 'update', DELETE: 'remove' };

/** The declared `default` of each filtered property that has one; undefined when none does. */
function defaultsOf(stored: ReadonlyMap<string, { default?: unknown }>, filters: ReadonlyMap<string, string> | undefined): ReadonlyMap<string, unknown> | undefined {
  const defaults = new Map<string, unknown>();
  for (const property of filters?.values() ?? []) {
    const schema = stored.get(property);
    if (schema && 'default' in schema) defaults.set(property, schema.default);
  }
  return defaults.size ? defaults : undefined;
}

function smallest(...values: Array<number | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length ? Math.min(...known) : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** What a step needs to become a request: the case builder of the runner (credentials, headers, parameters). */
export interface StepRequest {
  operation: SuiteContract;
  step: SequenceStep;
  description: string;
  expect: CaseExpectation;
  body?: string;
  /** Parameter values as JSON text, by name. */
  parameters?: ReadonlyMap<string, string>;
  /** Send no credential. */
  anonymous?: boolean;
  /** Judge nothing (the clean-up of a record a failed step left behind). */
  cleanup?: boolean;
  /** Why the step cannot be sent: recorded as not sent, with this reason, instead of sent. */
  notSent?: string;
}

/** Sends one step and gives back what came back: status and parsed body (undefined when not JSON or no answer). */
export type StepSender = (request: StepRequest) => Promise<{ status?: number; body?: unknown; headers?: Record<string, string> }>;

export interface SequenceContext {
  ids: IdSource;
  seed: number;
  send: StepSender;
  /** Fetch a further page of a list (a `next` URL the provider gave); bounded by the caller. */
  fetchPage: (operation: SuiteContract, url: string) => Promise<{ status?: number; body?: unknown; headers?: Record<string, string> }>;
  /** Body properties naming other resources' records, per operation: the values earlier answers gave (JSON text by property). */
  bodies?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Path and query parameters naming records only a list gives, per operation: the values earlier answers gave (JSON text by name). */
  parameters?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Per operation, a path parameter's second value a list answered (another record than `parameters` names), by name. */
  elsewhere?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const MAX_PAGES = 20;
/** Six lower-case letters; built once, as building a string arbitrary costs far more than a draw from it. */
const WORDS: fc.Arbitrary<string> = fc.stringMatching(/^[a-z]{6}$/);

/** Runs every plan's sequence, one step at a time. Each step's exchange goes through `context.send`. */
export async function runSequences(plans: readonly SequencePlan[], context: SequenceContext): Promise<void> {
  for (const plan of plans) await runSequence(plan, context);
}

async function runSequence(plan: SequencePlan, context: SequenceContext): Promise<void> {
  // An enveloped collection's record is written inside its member, and read back from there (the mock's rule).
  const body = plan.envelope?.create ?? plan.create.requestBody;
  if (!body) return;
  const member = plan.envelope?.member;
  /** Whether the record's item path names it (a read, update or delete): an identity no path segment can hold is then a finding. */
  const named = plan.read !== undefined || plan.update !== undefined || plan.remove !== undefined;
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (context.seed + 104_729 * ++draws) | 0, numRuns: 1 })[0] as T;
  const identityProperty = body.properties.find((p) => p.name === plan.identity);
  const { noun } = plan;
  const itemParameter = (operation: SuiteContract | undefined): SuiteParameter | undefined =>
    operation?.parameters.find((p) => p.in === 'path' && (plan.itemParameter === undefined || p.name === plan.itemParameter));
  /** Every step of a nested collection names its parent record in the path. */
  let parentParameters: ReadonlyMap<string, string> = new Map();
  const send: StepSender = (request) => context.send({ ...request, parameters: new Map([...parentParameters, ...(request.parameters ?? [])]) });

  /** A valid body with `id` and distinct strings (a swap between two records shows). */
  const makeBody = (
    id: string | undefined,
    word: string,
    schema: RequestBody = body,
    identity = plan.identity,
    member = plan.identityMember,
  ): { text: string; value: Record<string, unknown> } | undefined =>
    validRecordBody(schema, identity, id, word, sample, context.bodies?.get([plan.create, plan.update, plan.parent?.create].find((o) => o?.requestBody === schema)?.operationId ?? ''), member);
  // A string identity in a shape its schema takes (a slug's pattern), fresh per record; an object identity's member's.
  // An identity that names the record in its item path takes the path parameter's shape where its own says none (a body's
  // `id: string` behind `{silenceID}: uuid`): a key the path refuses would make a record no client could read.
  const keySchema = narrowedByPath(keySchemaOf(identityProperty?.schema, plan.identityMember), itemParameter(plan.read ?? plan.update ?? plan.remove)?.schema);
  const stringKey = keySchema ? freshKeyMaker(keySchema, context.ids) : undefined;
  const freshId = (): string | undefined =>
    plan.assigned
      ? undefined
      : plan.atTarget && !identityProperty
        ? freshTargetKey(plan, context.ids)
        : identityProperty && plan.identityType === 'integer'
          ? freshIdentity(identityProperty, context.ids).toString()
          : plan.identityType === 'string'
            ? (stringKey?.() ?? JSON.stringify(`seq-${context.ids.next('safe-positive')}`))
            : undefined;
  /** A first id past 2^60 and a multiple of 256 where the identity allows one, so that it and the id after it are one double. */
  const wideId = (): string | undefined => {
    if (plan.assigned || !identityProperty || plan.identityType !== 'integer') return freshId();
    const wide = context.ids.between(2n ** 52n, 2n ** 53n) * 256n;
    return makeBody(wide.toString(), 'probe') ? wide.toString() : freshId();
  };
  const word = (): string => `w${sample(WORDS)}`;

  /** Which records a list must hold or lack, where its records show their identity (one only in the path cannot be looked for). */
  const listed = <K extends 'contains' | 'lacks'>(member: K, ids: string[]): Partial<Record<K, string[]>> =>
    plan.identityInPathOnly || plan.identityUnlisted ? {} : ({ [member]: ids } as Record<K, string[]>);
  // A filter the list requires (Netlify's GET /hooks?site_id=…, required): a list answers only the records
  // holding the value sent, so it can hold every record made only if they share one. Each record holds one
  // value of it, sent in the body and in the create's query parameter of that name (Netlify's createHookBySiteId
  // takes site_id there: a provider may read either), and every list sends it.
  // Not a sampled word: the records' own words stay as drawn (distinct per record, so a swap shows).
  const pins = plan.list?.parameters.some((p) => p.in === 'query' && p.required && plan.filters.has(p.name)) ? requiredFilters(plan, body, `pin${context.ids.next('safe-positive')}`) : [];
  const pinnedList: ReadonlyMap<string, string> = new Map(pins.map((pin) => [pin.parameter, JSON.stringify(pin.value)]));
  const pinned = (made: { text: string; value: Record<string, unknown> }, schema: RequestBody, except?: string): { text: string; value: Record<string, unknown> } =>
    pins.reduce((so, pin) => (pin.property === except ? so : (withString(so, pin.property, pin.value, schema) ?? so)), made);
  /** The create's query parameters that name a pinned property: the value the body holds. */
  const createParameters = (setting?: { property: string; value: string }): ReadonlyMap<string, string> =>
    new Map(
      pins.flatMap((pin) => {
        const value = setting?.property === pin.property ? setting.value : pin.value;
        return plan.create.parameters.filter((p) => p.in === 'query' && (p.name === pin.parameter || p.name === pin.property)).map((p) => [p.name, JSON.stringify(value)] as const);
      }),
    );
  const created: string[] = [];
  /** The create exchange of each record made, for the links' runtime expressions. */
  const exchanges = new Map<string, Exchange>();
  /** Creates a record whose plain string `property` is `value` (the rest as `create` makes it); undefined when the spec refuses it. */
  const createWith = async (property: string, value: string, description: string): Promise<{ id: string; value: Record<string, unknown> } | undefined> =>
    create(freshId(), description, { property, value });
  const create = async (id: string | undefined, description: string, setting?: { property: string; value: string }): Promise<{ id: string; value: Record<string, unknown> } | undefined> => {
    const made0 = makeBody(id, word());
    const drawn = made0 && pinned(made0, body, setting?.property);
    const made = drawn && setting ? withString(drawn, setting.property, setting.value, body) : drawn;
    if (!made) return undefined;
    const answer = await send({
      operation: plan.create,
      step: {
        kind: 'create',
        collection: plan.collection,
        record: made.value,
        identity: plan.identity,
        ...optional('identityMember', plan.identityMember),
        ...optional('envelope', member),
        ...(named ? { named: true } : {}),
      },
      description,
      expect: 'accepted',
      body: wrapRecord(made.text, member),
      parameters: new Map([...createParameters(setting), ...targetParameter(plan, id)]),
    });
    if (answer.status === undefined || answer.status < 200 || answer.status > 299) return undefined;
    const record = createdRecordIn(answer.body, plan);
    const answered = isObject(record) ? record[plan.identity] : undefined;
    // A create that answers only the key (collections.ts, keyAnswered) says which record it made: a client follows that key.
    const followed = plan.keyAnswered === undefined ? undefined : createdKey(answer, plan);
    const key = followed ?? id ?? createdKey(answer, plan);
    if (key === undefined) return undefined;
    created.push(key);
    exchanges.set(key, {
      method: plan.create.method,
      statusCode: answer.status,
      request: { body: made.value },
      response: { body: answer.body, header: answer.headers ?? {} },
    });
    return { id: key, value: { ...made.value, ...((id === undefined || followed !== undefined) && answered !== undefined ? { [plan.identity]: answered } : {}) } };
  };
  /** The parameters of the step on record `id`: its link's, evaluated against the record's create exchange, else the identity in the item path. */
  const pathValue = (id: string, linked: LinkedStep = 'read'): ReadonlyMap<string, string> => {
    const link = plan.links?.[linked];
    const exchange = exchanges.get(id);
    if (link && exchange) {
      const values = new Map<string, string>();
      for (const [name, expression] of link.parameters) {
        const evaluated = evaluateLinkValue(expression, exchange);
        if (evaluated.ok) values.set(name, jsonText(evaluated.value));
      }
      if (values.size === link.parameters.size) return values;
    }
    const parameter = itemParameter(plan[linked] ?? plan.read ?? plan.remove ?? plan.update);
    return new Map(parameter ? [[parameter.name, id]] : []);
  };
  /** ` (link X)` when the step follows one of the spec's links. */
  const via = (linked: LinkedStep): string => (plan.links?.[linked] ? ` (link ${plan.links[linked].name})` : '');
  /** The ETag each record's last successful read answered: an update or delete taking If-Match sends it (RFC 9110 §13.1.1). */
  const etags = new Map<string, string>();
  const read = async (id: string, step: SequenceStep, description: string, expect: CaseExpectation = 'provider-choice', anonymous = false) => {
    if (!plan.read) return undefined;
    const answer = await send({
      operation: plan.read,
      step: member === undefined ? step : { ...step, envelope: member },
      description: description + (exchanges.has(id) ? via('read') : ''),
      expect,
      parameters: pathValue(id),
      anonymous,
    });
    const etag = answer.headers?.etag;
    if (etag !== undefined && answer.status !== undefined && answer.status >= 200 && answer.status < 300) etags.set(id, etag);
    return answer;
  };
  /** The path's parameters, and the record's ETag where the operation takes an If-Match header. */
  const conditional = (operation: SuiteContract, id: string, linked: LinkedStep): ReadonlyMap<string, string> => {
    const ifMatch = operation.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'if-match');
    const etag = etags.get(id);
    return ifMatch && etag !== undefined ? new Map([...pathValue(id, linked), [ifMatch.name, JSON.stringify(etag)]]) : pathValue(id, linked);
  };
  let pastEndAsked = false;
  /** Lists (every page); true when the first answer offered a next page. */
  const list = async (step: SequenceStep, description: string, parameters: ReadonlyMap<string, string> = new Map()): Promise<boolean> => {
    if (!plan.list) return false;
    if (pinnedList.size) parameters = new Map([...pinnedList, ...parameters]);
    if (plan.wrapper !== undefined) step.wrapper = plan.wrapper;
    const first = await send({ operation: plan.list, step, description, expect: 'provider-choice', parameters });
    // Paging: a Link rel="next" header or a `next` URL in a wrapped answer, followed a bounded number of times.
    // A copy: the later pages are added to it.
    const firstPage = listedItems(first.body, plan.wrapper, true);
    const items = firstPage && [...firstPage];
    let next = nextPage(first);
    let walked = 1;
    // A next link already followed (or one naming the page it is on) leads round in a circle: a finding, and the walk ends.
    const followed = new Set<string>();
    let previousPage = JSON.stringify(items);
    for (; next && walked < MAX_PAGES && items; walked++) {
      if (followed.has(next)) {
        if (step.kind === 'list') step.repeatedPage = { url: next, after: walked };
        next = undefined;
        break;
      }
      followed.add(next);
      const more = await context.fetchPage(plan.list, next);
      const records = listedItems(more.body, plan.wrapper, true) ?? [];
      if (records.length && JSON.stringify(records) === previousPage) {
        if (step.kind === 'list') step.repeatedPage = { url: next, after: walked };
        next = undefined;
        break;
      }
      previousPage = JSON.stringify(records);
      // One by one: a provider's page may be longer than a call's arguments can be (RangeError).
      for (const record of records) items.push(record);
      next = nextPage(more);
    }
    // Still a next link at the bound: the checks must know they judge the first pages only.
    let cutAfter = next && items ? walked : undefined;
    // No link, and the spec declares an offset or page number: the pages after the first, asked for by it,
    // until one adds nothing or is shorter than the first (a step asking for a limit judges its one page).
    // A cursor: the value each answer names for the next page (`next_cursor` …), until an answer names none.
    const byParameter = plan.offset ?? plan.page?.parameter ?? plan.cursor;
    const byCursor = byParameter !== undefined && byParameter === plan.cursor;
    let paged = false;
    let cursor = byCursor ? nextCursor(first.body) : undefined;
    if (!nextPage(first) && byParameter !== undefined && step.kind === 'list' && !step.limit && items && items.length > 0 && (!byCursor || cursor !== undefined)) {
      const pageSize = items.length;
      let previous = JSON.stringify(items);
      let ended = false;
      const cursors = new Set<string>();
      for (let page = 1; page < MAX_PAGES; page++) {
        if (byCursor && (cursor === undefined || cursors.has(cursor))) {
          // A cursor already given leads round in a circle: a finding, and the walk ends.
          if (cursor !== undefined) step.repeatedPage = { url: `${byParameter}=${cursor}`, after: page };
          ended = true;
          break;
        }
        if (cursor !== undefined) cursors.add(cursor);
        const position = byCursor ? (cursor as string) : plan.offset !== undefined ? items.length : (plan.page?.first ?? 1) + page;
        const more = await send({
          operation: plan.list,
          step: { kind: 'list-page', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember) },
          description: `${description}: the page at ${byParameter}=${position}`,
          expect: 'provider-choice',
          parameters: new Map([...parameters, [byParameter, byCursor ? JSON.stringify(position) : String(position)]]),
        });
        const records = listedItems(more.body, plan.wrapper, true) ?? [];
        paged = true;
        // The same page again: the parameter ignored (nothing further to see), or a cursor naming its own page (a finding).
        ended = JSON.stringify(records) === previous;
        if (ended && byCursor && records.length) step.repeatedPage = { url: `${byParameter}=${position}`, after: page };
        if (ended) break;
        previous = JSON.stringify(records);
        // One by one: a provider's page may be longer than a call's arguments can be (RangeError).
        for (const record of records) items.push(record);
        cursor = byCursor ? nextCursor(more.body) : undefined;
        ended = byCursor ? cursor === undefined : records.length < pageSize;
        if (ended) break;
      }
      if (!ended) cutAfter = MAX_PAGES;
      // A valid page past the end (the records all seen): the spec's answer for it, an empty page, once per sequence.
      if (ended && !pastEndAsked && !byCursor) {
        pastEndAsked = true;
        const position = pastTheEnd(plan, byParameter, items.length, pageSize);
        if (position !== undefined) {
          await send({
            operation: plan.list,
            step: {
              kind: 'list-past-end',
              collection: plan.collection,
              identity: plan.identity,
              ...optional('identityMember', plan.identityMember),
              ...optional('wrapper', plan.wrapper),
              page: { parameter: byParameter, value: position },
            },
            description: `${description}: the page at ${byParameter}=${position}, past the last record: it must be empty`,
            expect: 'provider-choice',
            parameters: new Map([...parameters, [byParameter, String(position)]]),
          });
        }
      }
    }
    if (step.kind === 'list' && items) step.seen = items;
    if (step.kind === 'list' && cutAfter !== undefined) step.cutAfter = cutAfter;
    // A full first page and no way to the next: records past it cannot be seen.
    if (step.kind === 'list' && items && !nextPage(first) && !paged && plan.pageCap !== undefined && items.length >= plan.pageCap) step.truncated = true;
    return nextPage(first) !== undefined;
  };

  if (plan.scope) {
    const scope = scopeValues(plan.create, plan.scope, context.seed, context.parameters?.get(plan.create.operationId));
    if (!scope) return;
    parentParameters = scope;
  }
  const parentKey = plan.parent ? await createParent(plan.parent) : undefined;
  if (plan.parent && parentKey === undefined) return;
  if (plan.parent && parentKey !== undefined) parentParameters = new Map([...parentParameters, [plan.parent.parameter, parentKey]]);
  const first = await create(freshId(), `creates a ${noun} to follow through the collection ${plan.collection}`);
  if (!first) return;
  await read(
    first.id,
    { kind: 'read', collection: plan.collection, record: first.value, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
    `reads the ${noun} just created`,
    'accepted',
  );
  if (plan.read && plan.read.security.kind !== 'none') {
    await read(
      first.id,
      { kind: 'read-anonymous', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
      `reads the ${noun} just created without a credential`,
      'unauthenticated',
      true,
    );
  }
  // Two more records whose ids differ by one past what a double holds, where the identity allows it: each must stay itself.
  const others: Array<{ id: string; value: Record<string, unknown> }> = [];
  const wide = wideId();
  const third = wide !== undefined && wide !== first.id ? await create(wide, `creates a second ${noun}, its ${plan.identity} ${wide} past 2^60`) : undefined;
  if (third) others.push(third);
  if (third && /^\d+$/.test(third.id) && BigInt(third.id) > 2n ** 53n && makeBody((BigInt(third.id) + 1n).toString(), 'probe')) {
    const next = (BigInt(third.id) + 1n).toString();
    const fourth = await create(next, `creates a third ${noun} whose ${plan.identity} is one more than the second one's, ${next} (past 2^53: a double cannot tell the two apart)`);
    if (fourth) others.push(fourth);
  } else if (!third) {
    const second = await create(freshId(), `creates a second ${noun}, with other values`);
    if (second) others.push(second);
  }
  for (const other of others)
    await read(
      other.id,
      { kind: 'read', collection: plan.collection, record: other.value, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: other.id },
      `reads the ${noun} ${other.id}`,
      'accepted',
    );
  if (others.length)
    await read(
      first.id,
      { kind: 'read', collection: plan.collection, record: first.value, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
      `reads the first ${noun} again, after the others were created`,
      'accepted',
    );
  await list(
    {
      kind: 'list',
      collection: plan.collection,
      identity: plan.identity,
      ...optional('identityMember', plan.identityMember),
      ...listed('contains', [first.id, ...others.map((o) => o.id)]),
      // Where the list is the only read, it shows the record as created.
      ...(plan.read || plan.identityInPathOnly || plan.identityUnlisted ? {} : { showing: { id: first.id, record: first.value } }),
    },
    plan.identityInPathOnly || plan.identityUnlisted
      ? `lists the ${plan.collection} collection (its records show no ${plan.identity}: which ones it holds cannot be told)`
      : `lists the ${plan.collection} collection: it must hold every ${noun} created`,
  );
  // Under another record a list answered for a scope parameter (a second workflow): the records made under the first are not its own.
  const apart =
    plan.scope && plan.list ? [...(context.elsewhere?.get(plan.create.operationId) ?? [])].find(([name, value]) => plan.scope?.includes(name) && parentParameters.get(name) !== value) : undefined;
  if (apart && !plan.identityInPathOnly && !plan.identityUnlisted) {
    const [parameter, value] = apart;
    await list(
      {
        kind: 'list',
        collection: plan.collection,
        identity: plan.identity,
        ...optional('identityMember', plan.identityMember),
        apart: { parameter, value, ids: [first.id, ...others.map((o) => o.id)] },
      },
      `lists the ${plan.collection} collection under ${parameter} ${value}, another than the one its records were created under: it must show none of them`,
      new Map([[parameter, value]]),
    );
  }
  if (plan.list) {
    const limit = plan.list.parameters.find((p) => p.in === 'query' && p.name === plan.limit);
    if (limit) {
      const linked = await list(
        { kind: 'list', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), limit: { parameter: limit.name, value: 1 } },
        `lists with ${limit.name}=1: at most one ${noun}`,
        new Map([[limit.name, '1']]),
      );
      // Every page at one record a page (by next link, offset, page number or cursor): the union of the pages holds
      // each record once, none repeated, none skipped (list_pages_advance, ensure_resource_availability).
      const paged = linked || plan.offset !== undefined || plan.page !== undefined || plan.cursor !== undefined;
      if (paged && !plan.identityInPathOnly && (typeof limit.schema.minimum !== 'number' || limit.schema.minimum <= 1)) {
        await list(
          {
            kind: 'list',
            collection: plan.collection,
            identity: plan.identity,
            ...optional('identityMember', plan.identityMember),
            union: true,
            ...listed('contains', [first.id, ...others.map((o) => o.id)]),
          },
          `walks every page of the ${plan.collection} list with ${limit.name}=1: each ${noun} created exactly once`,
          new Map([[limit.name, '1']]),
        );
      }
    }
    // A filter: a query parameter naming a record property (the CRUD rule's, `tags` for `tag`): any of its values.
    // Judged with records that match and records that do not: a boolean's other value, another record's string
    // (two values at once where the parameter takes an array: any of them), and a record differing only in letter case.
    for (const { parameter, property } of judgedFilters(plan)) {
      const wanted = first.value[property.name];
      const array = typesOf(parameter.schema).includes('array');
      const isBoolean = typeof wanted === 'boolean' && typesOf(property.schema).includes('boolean') && (array || typesOf(parameter.schema).includes('boolean'));
      if (!isBoolean && !(typeof wanted === 'string' && typesOf(property.schema).includes('string'))) continue;
      const other = array && typeof wanted === 'string' ? others.find((o) => typeof o.value[property.name] === 'string' && o.value[property.name] !== wanted) : undefined;
      const values = other ? [wanted, other.value[property.name] as string] : [wanted];
      // The same letters in the other case: an exact filter leaves that record out (a list_honours_parameters stray otherwise).
      if (typeof wanted === 'string' && plainString(property.schema) && !plan.identityInPathOnly && !plan.identityUnlisted && wanted.toUpperCase() !== wanted) {
        await createWith(property.name, wanted.toUpperCase(), `creates a ${noun} whose ${property.name} is ${wanted.toUpperCase()}: the filter ${parameter.name}=${wanted} must leave it out`);
      }
      // An enum's other value where every record made so far matches: without a record to leave out, ignoring the filter would pass.
      const enumOther = Array.isArray(property.schema.enum) ? property.schema.enum.find((v): v is string => typeof v === 'string' && !values.includes(v)) : undefined;
      if (typeof wanted === 'string' && enumOther !== undefined && !plan.identityInPathOnly && others.every((o) => values.includes(o.value[property.name] as string))) {
        await createWith(property.name, enumOther, `creates a ${noun} whose ${property.name} is ${enumOther}: the filter ${parameter.name}=${values.join(',')} must leave it out`);
      }
      await list(
        {
          kind: 'list',
          collection: plan.collection,
          identity: plan.identity,
          ...optional('identityMember', plan.identityMember),
          ...listed('contains', [first.id, ...(other ? [other.id] : [])]),
          filter: { parameter: parameter.name, property: property.name, values, ...optional('absent', plan.filterDefaults?.get(property.name)) },
        },
        `lists with ${parameter.name}=${values.map(String).join(',')}: only ${noun}s whose ${property.name} is ${values.length > 1 ? 'any of them' : String(wanted)}, the first one among them`,
        new Map([[parameter.name, array ? JSON.stringify(values) : JSON.stringify(wanted)]]),
      );
    }
  }
  if (plan.update?.requestBody) {
    // The update's own body schema (a PATCH may take a change, not a whole record); the identity as the record has it.
    // An update whose own body is the collection's envelope writes the record inside it.
    const updateBody = plan.envelope?.update ?? plan.update.requestBody;
    const drawnChange = makeBody(plan.assigned ? undefined : first.id, word(), updateBody);
    const changed = drawnChange && pinned(drawnChange, updateBody);
    if (changed) {
      const answer = await send({
        operation: plan.update,
        step: { kind: 'update', collection: plan.collection, record: changed.value, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
        description: `updates the first ${noun}${via('update')}`,
        expect: 'accepted',
        body: wrapRecord(changed.text, plan.envelope?.update ? member : undefined),
        parameters: conditional(plan.update, first.id, 'update'),
      });
      if (answer.status !== undefined && answer.status >= 200 && answer.status < 300) {
        // What the read must show: the updated properties a record keeps (a change body may carry others).
        const kept = Object.fromEntries(Object.entries(changed.value).filter(([name]) => body.properties.some((p) => p.name === name)));
        await read(
          first.id,
          {
            kind: 'read',
            collection: plan.collection,
            record: kept,
            identity: plan.identity,
            ...optional('identityMember', plan.identityMember),
            id: first.id,
            ...(plan.update.method === 'PATCH' ? { merged: true } : {}),
          },
          `reads the first ${noun} after the update: it must show it`,
          'accepted',
        );
        // No read by id: the list is how a client sees the record again, so it must show the update.
        if (!plan.read && !plan.identityInPathOnly && !plan.identityUnlisted) {
          await list(
            {
              kind: 'list',
              collection: plan.collection,
              identity: plan.identity,
              ...optional('identityMember', plan.identityMember),
              contains: [first.id],
              showing: { id: first.id, record: kept, ...(plan.update.method === 'PATCH' ? { merged: true } : {}) },
            },
            `lists the ${plan.collection} collection after the update: it must show the first ${noun} updated`,
          );
        }
      }
    }
  }
  /** The id the sequence's delete removed, when it was answered with success. */
  let deleted: string | undefined;
  if (plan.remove) {
    // The credential cases of a delete name ids that were never created, so a 404 there hides a delete that
    // skips authentication: this one names a record that exists, and the record must outlive it.
    if (plan.remove.security.kind !== 'none') {
      await send({
        operation: plan.remove,
        step: { kind: 'delete-anonymous', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
        description: `deletes the first ${noun} without a credential${via('remove')}: it must be refused`,
        expect: 'unauthenticated',
        parameters: conditional(plan.remove, first.id, 'remove'),
        anonymous: true,
      });
      await read(
        first.id,
        { kind: 'read', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id, afterAnonymousDelete: true },
        `reads the first ${noun} after the delete without a credential: it must still be there`,
        'accepted',
      );
    }
    const answer = await send({
      operation: plan.remove,
      step: { kind: 'delete', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id },
      description: `deletes the first ${noun}${via('remove')}`,
      expect: 'accepted',
      parameters: conditional(plan.remove, first.id, 'remove'),
    });
    if (answer.status !== undefined && answer.status >= 200 && answer.status < 300) {
      deleted = first.id;
      created.splice(created.indexOf(first.id), 1);
      // 202: the delete was accepted, not done (RFC 9110 §15.3.3): the record may outlive it a while.
      const pending = answer.status === 202 ? { deletePending: true } : {};
      await read(
        first.id,
        { kind: 'read-deleted', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: first.id, ...pending },
        `reads the ${noun} just deleted: it must be gone (404)`,
      );
      if (!plan.identityInPathOnly && !plan.identityUnlisted)
        await list(
          { kind: 'list', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), lacks: [first.id], ...pending },
          `lists the collection after the delete: the deleted ${noun} must not be in it`,
        );
    }
  }
  const missing = freshId() ?? neverAssigned(plan, itemParameter(plan.read)?.schema ?? identityProperty?.schema ?? {}, context.ids, deleted);
  if (missing !== undefined)
    await read(
      missing,
      { kind: 'read-missing', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: missing },
      `reads a ${noun} that was never created: it must be 404`,
    );
  // A delete of an id never created, where the spec declares 404 for it: a 2xx says it deleted what was never there.
  if (missing !== undefined && plan.remove?.responses.has(404)) {
    await send({
      operation: plan.remove,
      step: { kind: 'delete-missing', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id: missing },
      description: `deletes a ${noun} that was never created: the spec declares 404 for it`,
      expect: 'provider-choice',
      parameters: pathValue(missing, 'remove'),
    });
  }
  // Clean up: what the sequence created and did not delete as a step.
  if (plan.remove) {
    for (const id of created)
      await send({
        operation: plan.remove,
        step: { kind: 'cleanup', collection: plan.collection, identity: plan.identity, ...optional('identityMember', plan.identityMember), id },
        description: `deletes the ${noun} ${id} the sequence created (clean-up)`,
        expect: 'provider-choice',
        parameters: pathValue(id, 'remove'),
        cleanup: true,
      });
  }
  // The parent record last (the children first, as a provider that refuses to delete a parent with children needs).
  const parentRemove = plan.parent?.remove;
  if (parentRemove && parentKey !== undefined) {
    const parameter = parentRemove.parameters.find((p) => p.in === 'path');
    await send({
      operation: parentRemove,
      step: {
        kind: 'cleanup',
        collection: plan.parent?.collection ?? plan.collection,
        identity: plan.parent?.identity ?? plan.identity,
        ...optional('identityMember', plan.parent ? plan.parent.identityMember : plan.identityMember),
        id: parentKey,
      },
      description: `deletes the ${plan.parent?.noun ?? 'parent'} ${parentKey} the sequence created (clean-up)`,
      expect: 'provider-choice',
      parameters: new Map(parameter ? [[parameter.name, parentKey]] : []),
      cleanup: true,
    });
  }
  /** Creates the record a nested collection's records belong to; its identity as JSON text, or undefined when it could not. */
  async function createParent(parent: ParentPlan): Promise<string | undefined> {
    const parentBody = parent.envelope?.create ?? parent.create.requestBody;
    if (!parentBody) return undefined;
    const property = parentBody.properties.find((p) => p.name === parent.identity);
    const id = parent.assigned
      ? undefined
      : property && parent.identityType === 'integer'
        ? freshIdentity(property, context.ids).toString()
        : parent.identityType === 'string'
          ? ((property ? freshKeyMaker(keySchemaOf(property.schema, parent.identityMember) ?? {}, context.ids)?.() : undefined) ?? JSON.stringify(`seq-${context.ids.next('safe-positive')}`))
          : undefined;
    const made = makeBody(id, word(), parentBody, parent.identity, parent.identityMember);
    if (!made) return undefined;
    const answer = await send({
      operation: parent.create,
      step: { kind: 'create', collection: parent.collection, record: made.value, identity: parent.identity, ...optional('identityMember', parent.identityMember) },
      description: `creates a ${parent.noun} for the ${plan.collection} collection's records to belong to`,
      expect: 'accepted',
      body: wrapRecord(made.text, parent.envelope?.member),
    });
    if (answer.status === undefined || answer.status < 200 || answer.status > 299) return undefined;
    return id ?? createdKey(answer, parent);
  }
}

/**
 * One valid value (JSON text) for each scope parameter, as the create declares it; undefined when it declares one not.
 * A value an earlier answer gave for it (`given`: PowerDNS's `{server_id}` from `GET /servers`) first, else drawn
 * apart from the sequence's own draws, which stay as they were for a collection with no scope.
 */
export function scopeValues(create: SuiteContract, scope: readonly string[], seed: number, given?: ReadonlyMap<string, string>): Map<string, string> | undefined {
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (seed + 6_151 * ++draws) | 0, numRuns: 1 })[0] as T;
  const values = new Map<string, string>();
  for (const [parameter, literal] of validParameterValues(create, sample, false)) {
    if (parameter.in === 'path' && scope.includes(parameter.name) && literal !== undefined) values.set(parameter.name, given?.get(parameter.name) ?? literal);
  }
  return scope.every((name) => values.has(name)) ? values : undefined;
}

/**
 * The identity a create's answer gives the new record, as JSON text: the body's identity (inside its envelope for an enveloped collection; a
 * number's digits as the answer holds them: String() of an id past 2^53 would name another
 * record), else the last segment of its `Location` header when the one before it is the
 * collection's last (`/items/17` for `/items`, also absolute or under a base path); undefined when
 * neither says.
 */
export function createdKey(
  answer: { body?: unknown; headers?: Record<string, string> },
  plan: Pick<SequencePlan, 'collection' | 'identity' | 'identityMember' | 'identityType' | 'createdAs' | 'keyAnswered'> & { envelope?: Pick<EnvelopePlan, 'member'> | undefined },
): string | undefined {
  // An enveloped record's identity is inside the envelope (`{"article": {"slug": …}}`), a list's in its item; an object identity's key in its member.
  const held = keyHolder(createdRecordIn(answer.body, plan), plan.identity, plan.identityMember);
  const answered = held?.holder[held.name];
  // An empty identity names no record in a path segment (`/articles/` is the collection): nothing to follow (ensure_resource_availability says so).
  if (answered === '') return undefined;
  if (typeof answered === 'string') return JSON.stringify(answered);
  if (held && answered !== undefined) return exactDigits(held.holder, held.name) ?? jsonText(answered);
  const location = answer.headers?.location;
  if (location === undefined) return undefined;
  let segments: string[];
  try {
    segments = new URL(location, 'http://provider.invalid').pathname.replace(/\/+$/, '').split('/');
  } catch {
    return undefined;
  }
  const collectionName = plan.collection.split('/').pop();
  // The item path may name the collection in the singular (`/silences` → `/silence/{id}`: collections.ts).
  const named = segments[segments.length - 2];
  if (segments.length < 2 || collectionName === undefined || (named !== collectionName && named !== singular(collectionName))) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(segments[segments.length - 1] as string);
  } catch {
    return undefined;
  }
  if (segment === '') return undefined;
  const integer = /^-?\d+$/.test(segment) ? BigInt(segment).toString() : undefined;
  if (plan.identityType === 'integer') return integer;
  if (plan.identityType === 'string') return JSON.stringify(segment);
  return integer ?? JSON.stringify(segment);
}

/**
 * A valid body for a record: `id` (JSON text) as its identity when given, its plain strings
 * `<word>-<property>` (distinct per record, so a swap shows), the properties naming other records as
 * `given` (JSON text by name), other required properties drawn from their schemas; a oneOf body
 * tries each branch in turn. Undefined when ten tries fail.
 */
/**
 * A fresh key for a record created at its own path (SequencePlan.atTarget) whose body does not carry
 * its identity, drawn as the path parameter's schema takes it; undefined when none can be drawn.
 */
export function freshTargetKey(plan: Pick<SequencePlan, 'create' | 'itemParameter'>, ids: IdSource): string | undefined {
  const parameter = plan.create.parameters.find((p) => p.in === 'path' && p.name === plan.itemParameter);
  if (!parameter?.schema) return undefined;
  if (typesOf(parameter.schema).includes('integer')) return freshIdentity({ name: parameter.name, required: true, schema: parameter.schema }, ids).toString();
  return freshKeyMaker(parameter.schema, ids)?.();
}

/** The path parameter a create at the target URI names its record by (the key as JSON text); none for another create. */
export function targetParameter(plan: Pick<SequencePlan, 'atTarget' | 'itemParameter'>, id: string | undefined): [string, string][] {
  return plan.atTarget && plan.itemParameter !== undefined && id !== undefined ? [[plan.itemParameter, id]] : [];
}

export function validRecordBody(
  schema: RequestBody,
  identity: string,
  id: string | undefined,
  word: string,
  sample: <T>(arbitrary: fc.Arbitrary<T>) => T,
  given: ReadonlyMap<string, string> = new Map(),
  member?: string,
): { text: string; value: Record<string, unknown> } | undefined {
  for (let attempt = 0; attempt < 10; attempt++) {
    const members: string[] = [];
    // A oneOf/anyOf body: each branch in turn until one makes a body the spec accepts.
    const variant = schema.variants[attempt % Math.max(schema.variants.length, 1)];
    for (const property of variant?.properties ?? schema.properties) {
      if (property.schema.readOnly === true) continue;
      if (property.name === identity && id !== undefined) {
        members.push(`${JSON.stringify(property.name)}:${member === undefined ? id : identityObject(property.schema, member, id, sample)}`);
        continue;
      }
      // A property naming another resource's record (`trip_id`): the value an earlier answer gave.
      const held = property.name === identity ? undefined : given.get(property.name);
      if (held !== undefined) {
        members.push(`${JSON.stringify(property.name)}:${held}`);
        continue;
      }
      if (!property.required && !(typesOf(property.schema).includes('string') && plainString(property.schema))) continue;
      // An optional identity left to the provider (none given): not sent, so the provider assigns one its item path takes.
      if (property.name === identity && id === undefined && !property.required) continue;
      const literal = typesOf(property.schema).includes('string') && plainString(property.schema) ? JSON.stringify(`${word}-${property.name}`) : sample(validLiterals(property.schema));
      members.push(`${JSON.stringify(property.name)}:${literal}`);
    }
    const text = `{${members.join(',')}}`;
    const value = parseExactJson(text) as Record<string, unknown>;
    if (schema.validate(value)) return { text, value };
  }
  return undefined;
}

/**
 * An id the provider cannot have given, for an identity it assigns: the largest integer the path
 * parameter allows (int64's maximum by default; providers count up from 1), a fresh UUID for
 * `format: uuid`, a long random string otherwise. Else the id the sequence just deleted. As JSON text.
 */
export function neverAssigned(plan: Pick<SequencePlan, 'identityType'>, schema: JsonSchema, ids: IdSource, deleted?: string): string | undefined {
  if (plan.identityType === 'integer') return (integerBounds(schema).max ?? INT64_MAX).toString();
  if (plan.identityType === 'string') {
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
    if (schema.format === 'uuid') return JSON.stringify(randomUUID());
    if (!schema.pattern && !schema.enum && !schema.format && maxLength >= 16) return JSON.stringify(`never-${ids.between(2n ** 60n, 2n ** 62n).toString(36)}`.slice(0, Math.min(maxLength, 40)));
  }
  return deleted;
}

/**
 * A value for a path parameter that names no record the provider has: a fresh UUID where the
 * parameter takes one (Maestro's `^[{]?…[}]?$` pattern as much as `format: uuid`), else an id no
 * provider assigns (neverAssigned). As JSON text; undefined when neither can be made.
 */
export function neverMade(parameter: SuiteParameter | undefined, ids: IdSource): string | undefined {
  const schema = parameter?.schema ?? {};
  const uuid = JSON.stringify(randomUUID());
  if (parameter?.validate?.(JSON.parse(uuid))) return uuid;
  return neverAssigned({ identityType: schema.type === 'integer' ? 'integer' : schema.type === 'string' ? 'string' : 'other' }, schema, ids);
}

/**
 * The list's required query parameters that filter on a plain string property of the record, each with
 * the one value (`<word>-<property>`) every record of the sequence holds; none where the list's
 * parameter or the property would refuse it.
 */
function requiredFilters(plan: SequencePlan, body: RequestBody, word: string): Array<{ parameter: string; property: string; value: string }> {
  const out: Array<{ parameter: string; property: string; value: string }> = [];
  for (const parameter of plan.list?.parameters ?? []) {
    const property = plan.filters.get(parameter.name);
    if (parameter.in !== 'query' || !parameter.required || property === undefined) continue;
    const schema = body.properties.find((p) => p.name === property)?.schema;
    const value = `${word}-${property}`;
    if (!schema || !typesOf(schema).includes('string') || !plainString(schema) || (parameter.validate && !parameter.validate(value))) continue;
    out.push({ parameter: parameter.name, property, value });
  }
  return out;
}

/** A value as the JSON text the case builder takes for a parameter (an int64 on its exact digits). */
function jsonText(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

function plainString(schema: JsonSchema): boolean {
  return (
    !schema.enum &&
    !('const' in schema) &&
    !schema.pattern &&
    !schema.format &&
    (typeof schema.maxLength !== 'number' || schema.maxLength >= 24) &&
    (typeof schema.minLength !== 'number' || schema.minLength <= 8)
  );
}

/** A record body with one plain string member set to `value` (the text edited, so exact numbers stay exact); undefined when the spec refuses it. */
function withString(made: { text: string; value: Record<string, unknown> }, property: string, value: string, schema: RequestBody): { text: string; value: Record<string, unknown> } | undefined {
  const member = `${JSON.stringify(property)}:${JSON.stringify(made.value[property])}`;
  if (typeof made.value[property] !== 'string' || !made.text.includes(member)) return undefined;
  const text = made.text.replace(member, `${JSON.stringify(property)}:${JSON.stringify(value)}`);
  const parsed = parseExactJson(text) as Record<string, unknown>;
  return schema.validate(parsed) ? { text, value: parsed } : undefined;
}

/**
 * The offset (the number of records seen) or page number (the page after the last one) just past a
 * list's end, when the parameter's schema allows it; undefined when it does not.
 */
export function pastTheEnd(plan: Pick<SequencePlan, 'offset' | 'page' | 'list'>, parameter: string, seen: number, pageSize: number): number | undefined {
  const position = plan.offset === parameter ? seen : (plan.page?.first ?? 1) + Math.ceil(seen / Math.max(pageSize, 1));
  const schema = plan.list?.parameters.find((p) => p.in === 'query' && p.name === parameter)?.schema;
  if (typeof schema?.maximum === 'number' && position > schema.maximum) return undefined;
  if (typeof schema?.exclusiveMaximum === 'number' && position >= schema.exclusiveMaximum) return undefined;
  return position;
}

/** A string key's schema with the item path parameter's format or pattern, where it declares neither. */
function narrowedByPath(key: JsonSchema | undefined, path: JsonSchema | undefined): JsonSchema | undefined {
  if (!key || !path || key.format !== undefined || key.pattern !== undefined || (key.type !== undefined && key.type !== 'string') || path.type !== 'string') return key;
  if (typeof path.format !== 'string' && typeof path.pattern !== 'string') return key;
  return { ...key, ...(typeof path.format === 'string' ? { format: path.format } : {}), ...(typeof path.pattern === 'string' ? { pattern: path.pattern } : {}) };
}

/** The next page's cursor a wrapped answer names (`next_cursor`, `nextPageToken` …, at its top or one object down); undefined at the end. */
function nextCursor(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  for (const holder of [body, ...Object.values(body).filter(isObject)]) {
    for (const name of NEXT_CURSOR_NAMES) {
      const value = holder[name];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}

/** The next page's URL: a Link rel="next" header (RFC 8288), a `next` string in a wrapped answer, or one in a paging object beside its items. */
function nextPage(answer: { body?: unknown; headers?: Record<string, string> }): string | undefined {
  const link = answer.headers?.link;
  const fromHeader = link ? /<([^>]+)>\s*;[^,]*rel="?next"?/i.exec(link)?.[1] : undefined;
  if (fromHeader) return fromHeader;
  if (!isObject(answer.body)) return undefined;
  const candidates = [
    answer.body.next,
    isObject(answer.body.links) ? answer.body.links.next : undefined,
    isObject(answer.body._links) && isObject(answer.body._links.next) ? answer.body._links.next.href : undefined,
  ];
  // A paging object beside the items (Gotify's `paging.next`, `pagination.next`, `meta.next`): a next that is a URL or a path.
  for (const member of Object.values(answer.body)) if (isObject(member) && typeof member.next === 'string' && /^(\/|https?:\/\/)/i.test(member.next)) candidates.push(member.next);
  return candidates.find((c): c is string => typeof c === 'string' && c !== '');
}

/** An object identity holding `id` (JSON text) in its member: a valid value of its schema drawn, the member set. */
function identityObject(schema: JsonSchema, member: string, id: string, sample: <T>(arbitrary: fc.Arbitrary<T>) => T): string {
  let drawn: unknown;
  try {
    drawn = JSON.parse(sample(validLiterals(schema)));
  } catch {
    drawn = undefined;
  }
  const rest = isObject(drawn) ? Object.entries(drawn).filter(([name]) => name !== member) : [];
  return `{${[...rest.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`), `${JSON.stringify(member)}:${id}`].join(',')}}`;
}

/**
 * Where a record holds its identity's key: the property itself, or for an object identity the member
 * the item path carries (`ehr_id.value`: collections.ts, Identity.member); undefined when it holds none.
 */
export function keyHolder(record: unknown, identity: string, member?: string): { holder: Record<string, unknown>; name: string } | undefined {
  if (!isObject(record)) return undefined;
  if (member === undefined) return { holder: record, name: identity };
  const inner = record[identity];
  return isObject(inner) ? { holder: inner, name: member } : undefined;
}

/** Whether a record's key (its identity value as JSON text, an object identity's member's) is `key`. */
export function hasKey(record: unknown, identity: string, key: string, member?: string): boolean {
  const held = keyHolder(record, identity, member);
  if (held === undefined) return false;
  return heldKey(held.holder, held.name, key);
}

function heldKey(record: Record<string, unknown>, identity: string, key: string): boolean {
  const value = record[identity];
  if (value === undefined) return false;
  if (typeof value === 'string') return JSON.stringify(value) === key;
  if (typeof value === 'number' && /^-?\d+$/.test(key)) {
    // Compare the digits the answer really holds (parseExactJson keeps int64 literals).
    try {
      return BigInt(key) === BigInt(exactDigits(record, identity) ?? String(value));
    } catch {
      return false;
    }
  }
  return JSON.stringify(value) === key;
}

function exactDigits(record: Record<string, unknown>, identity: string): string | undefined {
  const value = record[identity];
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : exactIntegerText(record, identity);
}

function exactIntegerText(record: Record<string, unknown>, identity: string): string | undefined {
  return exactInteger(record, identity)?.toString();
}
