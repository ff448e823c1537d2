/**
 * The collections a spec implies, and what each of its operations does to them: one CRUD rule
 * shared by the mock (which serves them from its store) and the contract suite (which checks a
 * provider against them). Pure: a compiled contract in, collections and roles out.
 *
 * The rules (docs/mock.md, "Your own copy of the spec", says them with examples):
 * - A collection is a path P (not ending in a template) with a POST taking a JSON object body:
 *   that POST creates records, unless its success answers only in a type no record is written in
 *   (`text/plain`: a render or a command, answered from the spec). Its item path is P/{x}, when the spec has one,
 *   else a plural P's in the singular (`/silences` → `/silence/{silenceID}`) that no POST makes a collection of its own.
 * - A record stores what the create body declares (its `readOnly` properties left out) plus the
 *   identity; an answer shows what the answer's schema declares, never a `writeOnly` property.
 *   The stored schema is the create body's properties together with those of the record's
 *   representation (the create's and the item read's success answers).
 * - The identity is, in order: the override for P (`--identity /user=username`) or for every
 *   collection (`--identity username`) when the stored schema declares it; the item path's
 *   parameter x when the stored schema declares x (`/user/{username}` → username); `id` when
 *   declared (`/pets/{petId}` → id); x without the record's noun (`/pets/{petName}` → name). Where
 *   the stored schema declares none and the create answers a `Location` header, x itself: the
 *   identity only in the URL (`/notes/{noteId}` → noteId, typed by the path parameter's schema).
 * - A create whose success answers a list of what it made (an array whose items declare the identity,
 *   or an object declaring none of its own with an array member whose items do) answers the record as
 *   that list's one item (`createdAs`). One answering an object with a member named as the item path's parameter
 *   or the noun's id (`{"silenceID": …}`), its other members none of the record's, beside records declaring an
 *   identity of their own, answers the new key under that name (`keyAnswered`).
 * - A create at the target URI (RFC 9110 §9.3.4, §15.3.2): a PUT at an item path P/{x} answering 201, a
 *   POST there answering 201 without a `Location`, or either marked `x-mock-role: create`, where a GET
 *   reads P/{x}: the records of P, each named by its client in the path (JupyterHub's
 *   `PUT /users/{name}/servers/{server_name}`; its `POST /users/{name}` beside `POST /users`, a second
 *   create). One declaring no 409 creates or replaces. A PUT at the item path of a POST P's records
 *   replaces, creating what it names where it declares 201.
 * - A path listed and read (GET Q, GET Q/{x}) with no POST Q is created by one POST elsewhere under the
 *   same parent that answers 201 naming the record by the noun's id (`madeElsewhere`: Rooms'
 *   `…/users/invite_user`, Maestro's `…/workflows/{workflowId}/actions/trigger` making its `…/instances`).
 * - An identity the create body does not declare, or declares `readOnly`, is assigned by the
 *   mock: a sequence for integers, a UUID for `format: uuid`, a string otherwise.
 * - Over a collection: GET P lists when its success answer is an array, or an object with an
 *   array property (the one whose items declare the identity, else the only one); GET, PUT,
 *   PATCH, DELETE P/{x} read, replace, merge and delete; PUT/PATCH P with the identity in the
 *   body replace and merge it; POST P/{x} is a form update (query or form fields merged).
 * - A collection whose path has templates (`/bookings/{bookingId}/payments`) belongs to the
 *   collection whose item path is its prefix: its records live under the parent record.
 * - A path template no operation creates (no POST at the path before it, no PUT at it:
 *   `{accountId}` of `/v2/accounts/{accountId}/offices`, `{organization}` of
 *   `/{organization}/_apis/projects`) names something the client already has, a *scope*: the
 *   records created under it belong to that value, kept apart per value, and nothing need exist
 *   first (nothing could create it). A collection under a parent keeps the parent's scopes.
 * - A singleton is a path not ending in a template, with a GET and a PUT taking a JSON object body,
 *   that is no collection's (`/users/{id}/profile`, `/settings`): one document per concrete path,
 *   answered from the spec's examples until written (PUT, PATCH), deleted by DELETE. Under an item
 *   path it belongs to that record as a nested collection does.
 */
import { declaredProperties, flattenObject, mergeAllOf, typesOf } from '../schema/shape.js';
import { firstJson, isJsonMediaType, isXmlMediaType } from '../media-types.js';
import { successOf, type CompiledContract, type ContractMediaType, type ContractOperation, type ContractParameter } from './model.js';
import { isObject, resolveRef, type Schema } from '../schema/resolve.js';
import { exactPlanDeclaring, type ExactPlan } from '../schema/exact-json.js';
import { withSchemaShapes } from './body-shapes.js';
import type { ValidateFunction } from 'ajv';
import { MockExtensionError, mockHints, type MockHints, type MockPage, type MockRole } from './mock-extensions.js';

export type CollectionRole = 'create' | 'list' | 'read' | 'replace' | 'patch' | 'delete' | 'replace-in-body' | 'patch-in-body' | 'form-update';

/** Which property identifies a record, and how its values become keys. */
export interface Identity {
  property: string;
  /** The identity's JSON type as the stored schema declares it. */
  type: 'integer' | 'string' | 'other';
  /**
   * How the mock makes one when a create does not send it (not in the create body, readOnly, or
   * optional there); undefined: the client always sends it. Typed by the item path parameter's
   * schema where it has one (what GET P/{x} accepts), else by the identity's own schema.
   */
  assigned?: 'sequence' | 'uuid' | 'pattern' | 'string' | undefined;
  /**
   * The member of an object identity that names the record in the item path (`value` of
   * `ehr_id: {value: <uuid>}` behind `/ehr/{ehr_id}` with `{ehr_id}: {format: uuid}`): the key is that
   * member's value, and `type`, `assigned` and `pattern` are read from it. Undefined: the property's
   * value itself is the key.
   */
  member?: string;
  /** For `assigned: 'pattern'`: the keywords a made value must satisfy. */
  pattern?: { pattern: string; minLength?: number; maxLength?: number; format?: string };
  /** The create body declares the identity as an optional, writable property: a value the client sends is the key, else the mock assigns one. */
  optional?: true;
  /**
   * No schema declares it: the item path's parameter, of a create answering `Location` (often with
   * no body), is the identity. The record keeps it; the item path and the Location are the only
   * places an answer shows it (a list's items cannot be told apart by it).
   */
  inPathOnly?: true;
}

export interface Collection {
  /** The collection path as the spec writes it, `/plants` or `/bookings/{bookingId}/payments`; a top-level one is also the store's collection name. */
  path: string;
  /** The item path, `/plants/{id}`, when the spec has one. */
  itemPath: string | undefined;
  /** The item path's template parameter (`id` of `/plants/{id}`). */
  itemParameter: string | undefined;
  /** For a nested collection: the collection its records belong to, and the path parameter naming the parent record. */
  parent: { collection: Collection; parameter: string } | undefined;
  /**
   * The path parameters above it that no operation creates (`accountId` of `/v2/accounts/{accountId}/offices`),
   * in path order, a parent's included: each value holds records of its own, and none need exist first.
   */
  scope?: readonly string[];
  /** The create body schema's name (`NewPlant`), or the path's last word: what a valid body is called. */
  resource: string;
  /** What a person calls one record: the path's last word in the singular (`plant`). */
  noun: string;
  identity: Identity;
  create: ContractOperation;
  /**
   * The create is at the item path and names the record there (createsAtTarget: JupyterHub's
   * `PUT /users/{name}/servers/{server_name}`): the key is that path segment, the client's.
   * `upsert`: one declaring no 409 replaces a record it finds; `conflict`: a record there already is a conflict.
   * Undefined: the create is at the collection path.
   */
  atTarget?: 'upsert' | 'conflict';
  /** The create body's JSON media type: its validator and the properties a record keeps (the envelope's inner object, for an enveloped collection). */
  body: ContractMediaType;
  /**
   * The member a record is wrapped in (`article` of `{"article": {...}}`), when the create's request
   * and its answer are each an object of that one member whose schema is an object: the record is
   * the inner object, and each operation whose own body or answer is that envelope is unwrapped and
   * wrapped (envelopeOf).
   */
  envelope?: string;
  /**
   * The create answers the records it made as a list does (createdAsList): an array of them
   * (JupyterHub's `POST /users`, "the created users"), or an object's array member of them (Pi-hole's
   * `{groups: [...], took}`). The record is the one item. Undefined: the answer is the record itself.
   */
  createdAs?: ListShape;
  /**
   * The create answers only the new record's key, under a name of its own (Alertmanager's
   * `{"silenceID": …}` for records that name themselves `id`): the one member of its object answer,
   * named as the item path's parameter or the noun's id (keyAnsweredAs). Undefined: the answer is the record.
   */
  keyAnswered?: string;
  /** The properties a record keeps from a client's body: the create body's, without its readOnly ones. */
  declared: ReadonlySet<string>;
  /** Every property of the stored schema, with its schema (the create body's and the representation's). */
  stored: ReadonlyMap<string, Schema>;
  /** Properties never answered. */
  writeOnly: ReadonlySet<string>;
}

/** How a list answer carries the records. */
export type ListShape = { kind: 'array' } | { kind: 'wrapped'; property: string };

export interface ListPlan {
  shape: ListShape;
  /** The item properties an answer shows. */
  items: ReadonlySet<string>;
  /**
   * The declared paging parameters: page size, offset and page number, each with its `default`,
   * and whether pages count from 0 or 1.
   */
  paging: { size?: string; defaultSize?: number; offset?: string; defaultOffset?: number; page?: string; defaultPage?: number; firstPage: 0 | 1; cursor?: string };
  /**
   * Query parameters naming a stored property: parameter name → property. A parameter names a
   * property by its exact name, else by its singular (`tags` → `tag`), else as the singular of
   * an array property's name (`tag` → `tags`).
   */
  filters: ReadonlyMap<string, string>;
  /** deepObject (object) query parameters whose members name stored properties: parameter → member → property. */
  memberFilters?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The array's `maxItems`: no answer holds more. */
  maxItems: number | undefined;
}

export interface StatefulOperation {
  role: CollectionRole;
  collection: Collection;
  /** For a create at the item path (createsAtTarget): the record it names is the path's; how it meets one already there. */
  atTarget?: 'upsert' | 'conflict';
  /** For a list. */
  list?: ListPlan;
}

export interface RecognitionOptions {
  /**
   * Identity overrides: a property for every collection whose stored schema declares it
   * (`username`), and/or one per collection path (`/user` → `username`).
   */
  identity?: string | IdentityOverrides;
  /** operationIds answered from examples even when recognised; `all` turns every stateful answer off. */
  stateless?: ReadonlySet<string> | 'all';
}

/** An `--identity /path=property` rule that names no collection, or a property its records do not declare: refused at start. */
export class IdentityOverrideError extends Error {
  override name = 'IdentityOverrideError';
}

export interface IdentityOverrides {
  everywhere?: string;
  byPath?: ReadonlyMap<string, string>;
}

/** The paging parameter names recognised, in the order they are looked for. */
export const PAGE_SIZE_NAMES = ['limit', 'size', 'per_page', 'perPage', 'page_size', 'pageSize', 'top', '$top', 'max_results', 'maxResults', 'take'] as const;
export const OFFSET_NAMES = ['offset', 'skip', '$skip', 'start'] as const;
/** Opaque cursors: the mock's own token of where the next page starts, given back as sent. */
export const CURSOR_NAMES = ['cursor', 'after', 'page_token', 'pageToken', 'continuation_token', 'continuationToken', 'next_token', 'nextToken', 'starting_after'] as const;
export const PAGE_NUMBER_NAMES = ['page', 'page_number', 'pageNumber'] as const;
/** Members of a list's answer naming the next page's cursor (given back in the cursor parameter); the mock writes them, the suite follows them. */
export const NEXT_CURSOR_NAMES = ['next_cursor', 'nextCursor', 'cursor', 'continuation_token', 'continuationToken', 'next_page_token', 'nextPageToken', 'next_token', 'nextToken'] as const;

/** Which paging value a member of a list's answer named like a paging parameter holds. */
export type PagingValue = 'page' | 'size' | 'offset';
export const PAGING_VALUES: ReadonlyMap<string, PagingValue> = new Map<string, PagingValue>([
  ...PAGE_NUMBER_NAMES.map((name): [string, PagingValue] => [name, 'page']),
  ...PAGE_SIZE_NAMES.map((name): [string, PagingValue] => [name, 'size']),
  ...OFFSET_NAMES.map((name): [string, PagingValue] => [name, 'offset']),
]);

/**
 * Reads `--identity`'s value: comma-separated entries, each `property` (every collection) or
 * `/path=property` (that collection). Throws a RangeError naming a malformed entry.
 */
export function parseIdentityOverrides(text: string): IdentityOverrides {
  const byPath = new Map<string, string>();
  let everywhere: string | undefined;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const equals = entry.indexOf('=');
    if (equals === -1) {
      if (everywhere !== undefined && everywhere !== entry) throw new RangeError(`two identities for every collection: ${everywhere} and ${entry}`);
      everywhere = entry;
      continue;
    }
    const path = entry
      .slice(0, equals)
      .trim()
      .replace(/(.)\/$/, '$1');
    const property = entry.slice(equals + 1).trim();
    if (!path.startsWith('/') || property === '') throw new RangeError(`'${entry}' is not /collection-path=property`);
    byPath.set(path, property);
  }
  return { everywhere, byPath };
}

/** The stateful operations of a contract, by operationId, and the collections they serve. */
export function recogniseCollections(
  contract: CompiledContract,
  options: RecognitionOptions = {},
): { collections: Collection[]; stateful: Map<string, StatefulOperation>; stateless: Map<string, string> } {
  const globalOverrides: IdentityOverrides = typeof options.identity === 'string' ? { everywhere: options.identity } : (options.identity ?? {});
  const stateless = options.stateless ?? new Set<string>();
  const hints = mockHints(contract);
  const hintOf = (operation: ContractOperation): MockHints | undefined => hints.get(operation.operationId);
  /** Why an operation is left stateless, by operationId: printed at start and shown at /__mock/spec. */
  const reasons = new Map<string, string>();
  const turnedOff = (operation: ContractOperation): string | undefined =>
    stateless === 'all' || stateless.has(operation.operationId)
      ? '--stateless names it'
      : hintOf(operation)?.role === 'none'
        ? 'x-mock-role: none'
        : hintOf(operation)?.collection === false
          ? 'x-mock-collection: false'
          : undefined;
  const off = (operation: ContractOperation): boolean => turnedOff(operation) !== undefined;
  const collections: Collection[] = [];
  const stateful = new Map<string, StatefulOperation>();
  const operations = [...contract.operations.values()];
  for (const operation of operations) {
    const why = turnedOff(operation);
    if (why !== undefined) reasons.set(operation.operationId, why);
  }
  // A collection whose create is an action elsewhere (`…/actions/trigger` making `…/instances`): its records' path.
  const madeAt = madeElsewhere(operations.filter((o) => !off(o)));
  const collectionPathOf = (create: ContractOperation): string => madeAt.get(create.operationId) ?? trimSlash(create.path);
  // Parents before their nested collections: shorter paths first; at one path, a POST to it before a create at its item path. A POST given another role creates nothing.
  const atTarget = new Set(operations.filter((o) => !off(o) && createsAtTarget(o, operations, hintOf(o))).map((o) => o.operationId));
  const creates = operations
    .filter((o) => atTarget.has(o.operationId) || (o.method === 'post' && !off(o) && !/\}\/?$/.test(o.path) && (hintOf(o)?.role ?? 'create') === 'create'))
    .map((o) => ({ o, path: atTarget.has(o.operationId) ? (itemPathOf(o.path) as string) : collectionPathOf(o) }))
    .sort((a, b) => segments(a.path) - segments(b.path) || targetRank(a.o, atTarget) - targetRank(b.o, atTarget))
    .map(({ o }) => o);
  for (const create of creates) {
    const hint = hintOf(create);
    const target = atTarget.has(create.operationId);
    // Already placed by a POST to its collection's path (a PUT there replaces, creating what it names where it declares 201).
    if (target && stateful.has(create.operationId)) continue;
    const stated = hint?.role === 'create' || hint?.collection === true;
    // A create at the target URI taking no body (JupyterHub's `POST /groups/{name}`) makes a record of what its read
    // answers, the path naming it: that representation is what a stored record (a seed, a patched one) must be.
    const bodyless = target && create.requestBody === undefined ? readAnswerOf(create, operations) : undefined;
    const sent = bodyless ?? firstJson(create.requestBody?.content);
    if (sent?.schema === undefined || !(isObjectMedia(sent) || stated)) {
      if (stated) throw MockExtensionError.at((hint?.at.role ?? hint?.at.collection) as string, `${create.method.toUpperCase()} ${create.path} takes no JSON body for the mock to store`);
      reasons.set(
        create.operationId,
        sent === undefined ? 'its request body is not JSON: nothing to store' : 'its request body is not a JSON object: nothing to store (x-mock-collection: true says it creates records)',
      );
      continue;
    }
    if (answersNoRecord(create)) {
      reasons.set(create.operationId, 'its success answers no JSON or XML record: answered from the spec, nothing stored');
      continue;
    }
    const path = target ? (itemPathOf(create.path) as string) : collectionPathOf(create);
    if (collections.some((c) => c.path === path)) {
      reasons.set(create.operationId, `another operation creates the records of ${path}`);
      continue;
    }
    // x-mock-identity is this collection's --identity rule (a flag for the path wins).
    const overrides: IdentityOverrides =
      hint?.identity === undefined || globalOverrides.byPath?.has(path) ? globalOverrides : { ...globalOverrides, byPath: new Map(globalOverrides.byPath ?? []).set(path, hint.identity) };
    const itemPath = target ? create.path : (operations.find((o) => itemPathOf(o.path) === path)?.path ?? singularItemPath(path, operations));
    const itemParameter = itemPath === undefined ? undefined : lastTemplate(itemPath);
    const read = itemPath === undefined ? undefined : operations.find((o) => o.method === 'get' && o.path === itemPath);
    const batch = stated || target ? undefined : batchMember(sent, create, read);
    if (batch !== undefined) {
      reasons.set(
        create.operationId,
        `its request body is a batch, the records in its array '${batch}' as its answer holds them, not one record: answered from the spec, nothing stored (the mock stores one record a create)`,
      );
      continue;
    }
    // A collection at the root (`POST /`, `GET /{id}`) is named by its body's schema.
    const noun = singular(lastWord(path)) || (schemaName(create) ?? 'record').toLowerCase();
    const storedOf = (inside: string | undefined): { body: ContractMediaType; stored: Map<string, Schema>; answers: (ContractMediaType | undefined)[] } | undefined => {
      const body = inside === undefined ? sent : envelopedMedia(sent, inside, contract.document);
      if (!body) return undefined;
      const answers = [successMedia(create), read && successMedia(read)].map((answer) => (inside === undefined ? answer : answer && envelopedMedia(answer, inside, contract.document)));
      const stored = new Map<string, Schema>(body.propertySchemas);
      for (const answer of answers) {
        if (answer && isObjectMedia(answer)) for (const [name, schema] of answer.propertySchemas) if (!stored.has(name)) stored.set(name, schema);
      }
      return { body, stored, answers };
    };
    const bare = storedOf(undefined) as NonNullable<ReturnType<typeof storedOf>>;
    if (typeof hint?.envelope === 'string' && envelopeOf(sent) !== hint.envelope) {
      throw MockExtensionError.at(
        hint.at.envelope as string,
        `the request body of POST ${create.path} is not an object of the one member '${hint.envelope}' holding the record (it declares ${sent.properties.join(', ') || 'no member'})`,
      );
    }
    // An envelope only where the bare object names no identity: `{name: {...}}` keyed by name is a record of one member.
    const wrapper =
      hint?.envelope === false
        ? undefined
        : typeof hint?.envelope === 'string'
          ? hint.envelope
          : identityProperty(path, itemParameter, bare.stored, overrides, noun) === undefined
            ? envelopeAcross(sent, create, read)
            : undefined;
    const chosen = (wrapper === undefined ? undefined : storedOf(wrapper)) ?? bare;
    const { body, answers } = chosen;
    let { stored } = chosen;
    const envelope = body === sent ? undefined : wrapper;
    const forPath = overrides.byPath?.get(path);
    if (hint?.identity !== undefined && forPath === hint.identity && !stored.has(forPath)) {
      throw MockExtensionError.at(hint.at.identity as string, `the records of ${path} declare no property '${forPath}' (they declare ${[...stored.keys()].join(', ') || 'none'})`);
    }
    // Skipping the collection would silently turn it stateless: a typo in a flag must say so at start.
    if (forPath !== undefined && !stored.has(forPath)) {
      throw new IdentityOverrideError(`--identity ${path}=${forPath}: the records of ${path} declare no property '${forPath}' (they declare ${[...stored.keys()].join(', ') || 'none'})`);
    }
    let declaredIdentity = identityProperty(path, itemParameter, stored, overrides, noun);
    // A create answering only the key by its own name: the records' identity is the one they declare themselves.
    const keyName = envelope === undefined && forPath === undefined && overrides.everywhere === undefined && !target ? keyAnsweredAs(create, itemParameter, noun, read) : undefined;
    let keyAnswered: string | undefined;
    if (keyName !== undefined && declaredIdentity === keyName && !body.propertySchemas.has(keyName) && !(read && successMedia(read)?.propertySet.has(keyName))) {
      const own = new Map(stored);
      own.delete(keyName);
      const named = identityProperty(path, itemParameter, own, overrides, noun);
      if (named !== undefined) {
        declaredIdentity = named;
        keyAnswered = keyName;
        stored = own;
      }
    }
    const inPath = declaredIdentity === undefined ? identityInPath(create, operations, itemPath, itemParameter, forPath ?? overrides.everywhere, target) : undefined;
    const property = declaredIdentity ?? inPath?.name;
    if (property === undefined) {
      const candidates = [itemParameter, `${noun}_id`, 'id'].filter((name) => name !== undefined && name !== '_id');
      reasons.set(
        create.operationId,
        `no identity: the records of ${path}${envelope === undefined ? '' : ` (inside the envelope ${envelope})`} declare none of ${candidates.join(', ')}${itemPath === undefined ? '' : ' and the create answers no Location'} (x-mock-identity names one)`,
      );
      continue;
    }
    const propertySchema = inPath?.schema ?? answers.map((answer) => answer?.propertySchemas.get(property)).find((schema) => schema !== undefined) ?? stored.get(property);
    const parameterSchema = itemSchemaOf(operations, itemPath, itemParameter) ?? namesakeSchemaOf(operations, itemPath, property);
    const member = inPath ? undefined : identityMember(propertySchema, parameterSchema, contract.document);
    // A union identity (a name or a list of names) is keyed by the branch of the item parameter's type.
    const identitySchema = member?.schema ?? keyBranchOf(propertySchema, parameterSchema, contract.document);
    const inBody = body.propertySchemas.get(property);
    // The client may leave out an identity the create body declares but does not require: the server's job then.
    const optional = inBody !== undefined && inBody.readOnly !== true && !body.required.includes(property);
    // A create at the target URI is named by its client, in the path: nothing for the mock to assign.
    const assigned = !target && (inBody === undefined || inBody.readOnly === true || optional) ? assignedOf(identitySchema, parameterSchema) : undefined;
    const placed = placementOf(path, collections, operations);
    if (placed === undefined) {
      reasons.set(create.operationId, `its path is under no collection's item path: a record it creates belongs to nothing the mock stores`);
      continue;
    }
    const { parent, scope } = placed;
    const createdAs = envelope === undefined && keyAnswered === undefined && !target ? createdAsList(create, property) : undefined;
    const collection: Collection = {
      path,
      itemPath,
      itemParameter,
      parent,
      ...(scope.length ? { scope } : {}),
      resource: schemaName(create) ?? (lastWord(path) || noun),
      noun,
      identity: {
        property,
        type: optional ? jsonType(identitySchema) : identityTypeOf(identitySchema, assigned?.assigned),
        ...assigned,
        ...(member ? { member: member.name } : {}),
        ...(optional && !target ? { optional: true as const } : {}),
        ...(inPath ? { inPathOnly: true as const } : {}),
      },
      create,
      ...(target ? { atTarget: targetMode(create) } : {}),
      body,
      ...(envelope === undefined ? {} : { envelope }),
      ...(createdAs === undefined ? {} : { createdAs }),
      ...(keyAnswered === undefined ? {} : { keyAnswered }),
      // A create without a body writes nothing of the client's: the record is its identity and what the mock fills.
      declared: bodyless ? new Set<string>() : new Set([...body.propertySet].filter((name) => body.propertySchemas.get(name)?.readOnly !== true)),
      stored,
      writeOnly: new Set([...stored].filter(([, schema]) => schema.writeOnly === true).map(([name]) => name)),
    };
    collections.push(collection);
    stateful.set(create.operationId, { role: 'create', collection, ...(target ? { atTarget: targetMode(create) } : {}) });
    for (const operation of operations) {
      const role = hintOf(operation)?.role;
      if (off(operation) || stateful.has(operation.operationId)) continue;
      // Another create, at the item path (JupyterHub's `POST /users/{name}` beside `POST /users`); a PUT there replaces unless marked a create.
      if (atTarget.has(operation.operationId) && operation.path === itemPath && (operation.method === 'post' || role === 'create')) {
        stateful.set(operation.operationId, { role: 'create', collection, atTarget: targetMode(operation) });
        continue;
      }
      if (role === 'create') continue;
      const recognised = role === undefined ? roleOf(operation, collection, contract.document, hintOf(operation)) : statedRole(operation, role, collection, hintOf(operation) as MockHints);
      if (recognised) stateful.set(operation.operationId, recognised);
    }
  }
  for (const operation of operations) {
    const hint = hintOf(operation);
    if (hint?.role !== undefined && hint.role !== 'none' && hint.role !== 'create' && !stateful.has(operation.operationId) && !off(operation)) {
      throw MockExtensionError.at(
        hint.at.role as string,
        `${operation.method.toUpperCase()} ${operation.path} is ${hint.role === 'list' ? 'at' : 'under'} no collection's ${hint.role === 'list' ? 'path' : 'item path'} (${collections.map((c) => c.itemPath ?? c.path).join(', ') || 'the spec has none'})`,
      );
    }
    if (!stateful.has(operation.operationId) && !reasons.has(operation.operationId)) reasons.set(operation.operationId, whyStateless(operation, collections, creates, reasons));
  }
  // A rule for a path the spec creates nothing at is a typo too (a collection left stateless by --stateless is no mistake).
  const creatable = new Set(
    operations.filter((o) => o.method === 'post' || atTarget.has(o.operationId)).map((o) => (atTarget.has(o.operationId) ? (itemPathOf(o.path) as string) : trimSlash(o.path))),
  );
  for (const [path, property] of globalOverrides.byPath ?? []) {
    if (!creatable.has(path)) {
      throw new IdentityOverrideError(`--identity ${path}=${property}: ${path} is not a collection (${collections.map((c) => c.path).join(', ') || 'the spec has none'})`);
    }
  }
  return { collections, stateful, stateless: reasons };
}

/** An operation an `x-mock-role` places: under the collection's item path (read, update, delete) or its path (list); undefined when elsewhere. */
function statedRole(operation: ContractOperation, role: MockRole, collection: Collection, hint: MockHints): StatefulOperation | undefined {
  const path = trimSlash(operation.path);
  if (role === 'list') {
    if (path !== collection.path && !(path.startsWith(`${collection.path === '/' ? '' : collection.path}/`) && !path.slice(collection.path.length).includes('{'))) return undefined;
    const list = listPlanOf(operation, collection, hint);
    if (!list)
      throw MockExtensionError.at(hint.at.role as string, `x-mock-role list: the success answer of ${operation.method.toUpperCase()} ${operation.path} holds no array of ${collection.path}'s records`);
    return { role: 'list', collection, list };
  }
  const item = collection.itemPath === undefined ? undefined : trimSlash(collection.itemPath);
  if (item === undefined || (path !== item && !path.startsWith(`${item}/`))) return undefined;
  if (role === 'read' || role === 'delete') return { role, collection };
  if (role === 'update') {
    if (operation.method === 'put') return { role: 'replace', collection };
    if (operation.method === 'patch') return { role: 'patch', collection };
    if (operation.method === 'post') return { role: 'form-update', collection };
    throw MockExtensionError.at(hint.at.role as string, `x-mock-role update: a ${operation.method.toUpperCase()} carries no change (PUT, PATCH or POST)`);
  }
  return undefined;
}

/** Why the CRUD rule leaves an operation stateless, in a few words a person acts on. */
function whyStateless(operation: ContractOperation, collections: readonly Collection[], creates: readonly ContractOperation[], reasons: ReadonlyMap<string, string>): string {
  const path = trimSlash(operation.path);
  const method = operation.method.toUpperCase();
  const collection = collections.find((c) => c.path === path);
  if (collection) {
    if (operation.method === 'get') return `its success answer holds no array of ${collection.path}'s records`;
    if (operation.method === 'put' || operation.method === 'patch') return `its body does not carry the identity ${collection.identity.property}`;
    return `${method} on a collection's path is no create, list or update`;
  }
  const owner = collections.find((c) => c.itemPath !== undefined && trimSlash(c.itemPath) === path);
  if (owner) return operation.method === 'put' || operation.method === 'patch' ? 'its request body is not JSON' : `${method} on an item path is no read, update or delete`;
  const base = itemPathOf(operation.path) ?? path;
  const create = creates.find((o) => trimSlash(o.path) === base);
  const why = create && reasons.get(create.operationId);
  if (why !== undefined) return `${base} is no collection: POST ${base}: ${why}`;
  return `no POST ${base} creates records (x-mock-role places an operation in a collection)`;
}

export type SingletonRole = 'read' | 'replace' | 'patch' | 'delete';

export interface Singleton {
  /** The path as the spec writes it: `/users/{id}/profile`. */
  path: string;
  /** The record it belongs to: the collection whose item path is its prefix, and that path's parameter. */
  parent: Collection['parent'];
  /** The PUT's JSON body: what a written document is checked against. */
  body: ContractMediaType;
  /** The properties a document keeps from a client's body: the PUT body's, without its readOnly ones. */
  declared: ReadonlySet<string>;
  /** Properties never answered. */
  writeOnly: ReadonlySet<string>;
}

/** The singleton operations (by operationId) of the paths no collection serves, by the rule above. */
export function recogniseSingletons(
  contract: CompiledContract,
  recognised: { collections: readonly Collection[]; stateful: ReadonlyMap<string, StatefulOperation> },
  options: Pick<RecognitionOptions, 'stateless'> = {},
): Map<string, { role: SingletonRole; singleton: Singleton }> {
  const stateless = options.stateless ?? new Set<string>();
  const hints = mockHints(contract);
  const off = (operation: ContractOperation): boolean =>
    stateless === 'all' || stateless.has(operation.operationId) || hints.get(operation.operationId)?.role === 'none' || hints.get(operation.operationId)?.collection === false;
  const found = new Map<string, { role: SingletonRole; singleton: Singleton }>();
  const byPath = new Map<string, ContractOperation[]>();
  for (const operation of contract.operations.values()) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  for (const [path, operations] of byPath) {
    if (/\}\/?$/.test(path) || recognised.collections.some((c) => c.path === trimSlash(path))) continue;
    if (operations.some((o) => recognised.stateful.has(o.operationId))) continue;
    const read = operations.find((o) => o.method === 'get' && !off(o));
    const put = operations.find((o) => o.method === 'put' && !off(o));
    const body = put && firstJson(put.requestBody?.content);
    if (!read || !put || body?.schema === undefined || !isObjectMedia(body)) continue;
    const parent = parentOf(trimSlash(path), recognised.collections);
    if (/\{/.test(path) && !parent) continue;
    const stored = new Map<string, Schema>(body.propertySchemas);
    const answer = successMedia(read);
    for (const [name, schema] of answer?.propertySchemas ?? []) if (!stored.has(name)) stored.set(name, schema);
    const singleton: Singleton = {
      path: trimSlash(path),
      parent,
      body,
      declared: new Set([...body.propertySet].filter((name) => body.propertySchemas.get(name)?.readOnly !== true)),
      writeOnly: new Set([...stored].filter(([, schema]) => schema.writeOnly === true).map(([name]) => name)),
    };
    found.set(read.operationId, { role: 'read', singleton });
    found.set(put.operationId, { role: 'replace', singleton });
    const patch = operations.find((o) => o.method === 'patch' && !off(o) && firstJson(o.requestBody?.content));
    if (patch) found.set(patch.operationId, { role: 'patch', singleton });
    const remove = operations.find((o) => o.method === 'delete' && !off(o));
    if (remove) found.set(remove.operationId, { role: 'delete', singleton });
  }
  return found;
}

/**
 * The identity of a create no schema declares one for, when the create names its new record by a
 * `Location` header (a 201 without a body, the identity only in the URL) or by its own path (a create
 * at the target URI): the item path's parameter, with its schema. Not when an `--identity` rule names a property (that one is wanted).
 */
function identityInPath(
  create: ContractOperation,
  operations: readonly ContractOperation[],
  itemPath: string | undefined,
  itemParameter: string | undefined,
  override: string | undefined,
  atTarget: boolean,
): { name: string; schema: Schema | undefined } | undefined {
  if (itemPath === undefined || itemParameter === undefined || override !== undefined) return undefined;
  if (!atTarget && successOf(create)?.response.headers.includes('location') !== true) return undefined;
  const parameter = operations.filter((o) => o.path === itemPath).flatMap((o) => o.parameters.filter((p) => p.in === 'path' && p.name === itemParameter))[0];
  return { name: itemParameter, schema: parameter?.schema };
}

/**
 * Whether `operation` creates the record its own path names, an item path P/{x} with a GET (RFC 9110):
 * a PUT answering 201 made what its target URI names (§9.3.4); a POST answering 201 without a
 * `Location` made its target URI (§15.3.2: the header, when sent, names what was made instead);
 * or `x-mock-role: create` says so (Qdrant's `PUT /collections/{name}` answers 200 only).
 */
function createsAtTarget(operation: ContractOperation, operations: readonly ContractOperation[], hint: MockHints | undefined): boolean {
  if ((operation.method !== 'put' && operation.method !== 'post') || itemPathOf(operation.path) === undefined) return false;
  if (hint?.role !== undefined && hint.role !== 'create') return false;
  if (!operations.some((o) => o.method === 'get' && o.path === operation.path)) return false;
  if (hint?.role === 'create') return true;
  const created = operation.responses.get(201);
  if (created === undefined) return false;
  return operation.method === 'put' || !created.headers.includes('location');
}

/** How a create at the target URI meets a record already there: a conflict where it declares 409, else it replaces it. */
function targetMode(operation: ContractOperation): 'upsert' | 'conflict' {
  return operation.responses.has(409) ? 'conflict' : 'upsert';
}

/** The JSON object the GET at an operation's own path answers (a record's representation), if any. */
function readAnswerOf(operation: ContractOperation, operations: readonly ContractOperation[]): ContractMediaType | undefined {
  const read = operations.find((o) => o.method === 'get' && o.path === operation.path);
  const media = read && successMedia(read);
  return media && isObjectMedia(media) ? media : undefined;
}

/** At one collection path: a POST to it creates first, then a PUT at its item path, then a POST there. */
function targetRank(operation: ContractOperation, atTarget: ReadonlySet<string>): number {
  return !atTarget.has(operation.operationId) ? 0 : operation.method === 'put' ? 1 : 2;
}

/** The identity property by the rule above; undefined when the stored schema declares none of the candidates. */
export function identityProperty(path: string, itemParameter: string | undefined, stored: ReadonlyMap<string, unknown>, overrides: IdentityOverrides, noun: string): string | undefined {
  // After the parameter's own name, the one its noun gives (`client_id` behind `/clients/{id}`), then `id`.
  const named = noun === '' ? [] : [`${noun}_id`, `${noun}Id`, `${noun}ID`];
  const candidates = [overrides.byPath?.get(path), overrides.everywhere, itemParameter, ...named, 'id'];
  if (itemParameter !== undefined && itemParameter.toLowerCase().startsWith(noun.toLowerCase()) && itemParameter.length > noun.length) {
    const rest = itemParameter.slice(noun.length).replace(/^[_-]/, '');
    candidates.push(rest, rest.charAt(0).toLowerCase() + rest.slice(1));
  }
  // An override for this path that the schema does not declare is a mistake worth refusing, not skipping.
  const forPath = overrides.byPath?.get(path);
  if (forPath !== undefined && !stored.has(forPath)) return undefined;
  return candidates.find((name): name is string => name !== undefined && stored.has(name));
}

function roleOf(operation: ContractOperation, collection: Collection, document: unknown, hint: MockHints | undefined): StatefulOperation | undefined {
  const path = trimSlash(operation.path);
  const onItem = collection.itemPath !== undefined && operation.path === collection.itemPath;
  if (path === collection.path) {
    if (operation.method === 'get') {
      const list = listPlanOf(operation, collection, hint);
      return list && { role: 'list', collection, list };
    }
    const sent = firstJson(operation.requestBody?.content);
    const body = collection.envelope !== undefined && sent ? (envelopedMedia(sent, collection.envelope, document) ?? sent) : sent;
    if (!body?.propertySchemas.has(collection.identity.property)) return undefined;
    if (operation.method === 'put') return { role: 'replace-in-body', collection };
    if (operation.method === 'patch') return { role: 'patch-in-body', collection };
    return undefined;
  }
  if (!onItem) return undefined;
  switch (operation.method) {
    case 'get':
      return { role: 'read', collection };
    case 'put':
      return firstJson(operation.requestBody?.content) ? { role: 'replace', collection } : undefined;
    case 'patch':
      return firstJson(operation.requestBody?.content) ? { role: 'patch', collection } : undefined;
    case 'delete':
      return { role: 'delete', collection };
    case 'post':
      // A 201 with a Location made another resource (RFC 9110 §15.3.2; Jupyter's POST of a directory makes a file in it): no update of this one.
      return operation.responses.get(201)?.headers.includes('location') === true ? undefined : { role: 'form-update', collection };
    default:
      return undefined;
  }
}

/** How GET P answers a list, or undefined when its success answer holds no array of records. */
function listPlanOf(operation: ContractOperation, collection: Collection, hint: MockHints | undefined): ListPlan | undefined {
  const media = successMedia(operation);
  if (!media) return undefined;
  let shape: ListShape;
  let items: ReadonlySet<string>;
  let maxItems: number | undefined;
  if (media.type === 'array') {
    shape = { kind: 'array' };
    items = media.itemProperties ?? collection.declared;
    maxItems = media.maxItems;
  } else {
    const arrays = [...media.arrayProperties];
    const chosen = arrays.find(([, properties]) => properties.has(collection.identity.property)) ?? (arrays.length === 1 ? arrays[0] : undefined);
    if (!chosen) return undefined;
    shape = { kind: 'wrapped', property: chosen[0] };
    items = chosen[1];
    const max = media.propertySchemas.get(chosen[0])?.maxItems;
    maxItems = typeof max === 'number' ? max : undefined;
  }
  // The items' schema may come from a later allOf part than the wrapper's (`{data: {items: {}}}` then `{data: {items: Booking}}`).
  const merged = media.itemObject(shape.kind === 'wrapped' ? shape.property : undefined);
  if (merged && merged.properties.size > items.size) items = new Set([...items, ...merged.properties.keys()]);
  const query = operation.parameters.filter((p) => p.in === 'query');
  const named = (names: readonly string[]): ContractParameter | undefined => names.map((n) => query.find((p) => p.name === n)).find(Boolean);
  // x-mock-page names them where the common names do not: each must be a query parameter of the list.
  const stated = (key: keyof MockPage, names: readonly string[]): ContractParameter | undefined => {
    const name = hint?.page?.[key];
    if (name === undefined) return hint?.page ? undefined : named(names);
    const found = query.find((p) => p.name === name);
    if (!found)
      throw MockExtensionError.at(
        `${hint?.at.page as string}/${key}`,
        `${operation.method.toUpperCase()} ${operation.path} has no query parameter '${name}' (it has ${query.map((p) => p.name).join(', ') || 'none'})`,
      );
    return found;
  };
  const page = stated('page', PAGE_NUMBER_NAMES);
  const size = stated('size', PAGE_SIZE_NAMES);
  const offset = stated('offset', OFFSET_NAMES);
  const cursor = stated('cursor', CURSOR_NAMES);
  const integer = (parameter: ContractParameter | undefined): number | undefined => {
    const value = parameter?.schema?.default;
    return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
  };
  const paging = {
    size: size?.name,
    defaultSize: typeof size?.schema?.default === 'number' ? size.schema.default : undefined,
    offset: offset?.name,
    page: page?.name,
    firstPage: (page?.schema?.minimum === 0 ? 0 : 1) as 0 | 1,
    ...(integer(offset) === undefined ? {} : { defaultOffset: integer(offset) }),
    ...(integer(page) === undefined ? {} : { defaultPage: integer(page) }),
    ...(cursor ? { cursor: cursor.name } : {}),
  };
  const pagingNames = new Set([paging.size, paging.offset, paging.page, paging.cursor]);
  const filters = new Map<string, string>();
  const memberFilters = new Map<string, ReadonlyMap<string, string>>();
  for (const parameter of query) {
    if (pagingNames.has(parameter.name)) continue;
    const property = filteredProperty(parameter.name, collection);
    if (property !== undefined) filters.set(parameter.name, property);
    else if (parameter.style === 'deepObject') {
      const members = new Map<string, string>();
      for (const member of Object.keys((parameter.schema?.properties as Record<string, unknown> | undefined) ?? {})) {
        const named = filteredProperty(member, collection);
        if (named !== undefined) members.set(member, named);
      }
      if (members.size) memberFilters.set(parameter.name, members);
    }
  }
  const plan: ListPlan = { shape, items: new Set([...items].filter((name) => !collection.writeOnly.has(name))), paging, filters, maxItems };
  return memberFilters.size ? { ...plan, memberFilters } : plan;
}

/** The stored property a filter named `name` keeps records by: its own name, its singular (`tags` → `tag`), or an array property it is the singular of (`tag` → `tags`). */
function filteredProperty(name: string, collection: Collection): string | undefined {
  const readable = (property: string): boolean => collection.stored.has(property) && !collection.writeOnly.has(property);
  const own = [name, singular(name)].find(readable);
  if (own !== undefined) return own;
  return [...collection.stored].find(([property, schema]) => property !== name && singular(property) === name && readable(property) && typesOf(schema).includes('array'))?.[0];
}

/**
 * The spec's own paths below a collection that are no record's: those whose segment right after
 * the collection's path is fixed (`/bookings/settings/display`, `/bookings/archive/{id}/tags` for
 * `/bookings`), never `/bookings/{bookingId}/…`. What an admin clear of the collection keeps
 * (store.ts, `clear`); the collection's path may itself hold templates (`/bookings/{b}/payments`).
 */
export function ownPathsBelow(collectionPath: string, paths: Iterable<string>): string[] {
  const base = trimSlash(collectionPath).split('/');
  const found = new Set<string>();
  for (const raw of paths) {
    const path = trimSlash(raw);
    const segments = path.split('/');
    const next = segments[base.length];
    if (next === undefined || next.includes('{')) continue;
    // The collection's own segments: equal, or both templates (parameters may be named otherwise on another path).
    if (base.every((segment, i) => segment === segments[i] || (segment.includes('{') && (segments[i] as string).includes('{')))) found.add(path);
  }
  return [...found];
}

/**
 * A plural collection's item path written in the singular (`/silences` → `/silence/{silenceID}`, as
 * Alertmanager, Netlify's database branches and Overseerr's push subscriptions write theirs), where the
 * spec has no `P/{x}` and no POST makes the singular path a collection of its own.
 */
function singularItemPath(path: string, operations: readonly ContractOperation[]): string | undefined {
  const cut = path.lastIndexOf('/');
  const last = path.slice(cut + 1);
  const one = singular(last);
  if (last === '' || last.includes('{') || one === last) return undefined;
  const base = `${path.slice(0, cut)}/${one}`;
  if (operations.some((o) => o.method === 'post' && trimSlash(o.path) === base)) return undefined;
  return operations.find((o) => itemPathOf(o.path) === base)?.path;
}

/**
 * The name under which a create answers only the new record's key: its success answer an object
 * with a member named as the item path's parameter or as the noun's id (`silenceID`, `silence_id`),
 * whose other members are none of the record's (`instance_url`, `request_id`: about the answer, not
 * the record): neither the create body's nor the item read's.
 */
function keyAnsweredAs(create: ContractOperation, itemParameter: string | undefined, noun: string, read: ContractOperation | undefined): string | undefined {
  const media = successMedia(create);
  if (!media || !isObjectMedia(media)) return undefined;
  const names = [itemParameter, ...(noun === '' ? [] : [`${noun}_id`, `${noun}Id`, `${noun}ID`])];
  const name = media.properties.find((property) => names.includes(property));
  const schema = name === undefined ? undefined : media.propertySchemas.get(name);
  if (name === undefined || schema === undefined || !typesOf(schema).every((type) => type === 'string' || type === 'integer')) return undefined;
  const body = firstJson(create.requestBody?.content);
  const shown = read && successMedia(read);
  return media.properties.every((property) => property === name || !(body?.propertySet.has(property) || shown?.propertySet.has(property))) ? name : undefined;
}

/**
 * Collections whose records a POST elsewhere makes, by that POST's operationId: a path Q listed
 * (GET Q) and read (GET Q/{x}) that no POST Q creates into, and one POST under the same parent,
 * below Q (`/users/invite_user`) or beside it (`…/workflows/{workflowId}/actions/trigger` beside
 * `…/workflows/{workflowId}/instances`), with no GET of its own, that answers 201 Created
 * (RFC 9110: a new resource made) with a JSON object naming the new record as Q's item path does,
 * by the noun's id (`userId` of `/users/{userId}`; `instance_id` for `{instanceId}`; never a bare
 * `id`). DocuSign Rooms invites users so, Maestro starts workflow instances so.
 */
function madeElsewhere(operations: readonly ContractOperation[]): Map<string, string> {
  const made = new Map<string, string>();
  const parentOfPath = (path: string): string => path.slice(0, path.lastIndexOf('}') + 1);
  const posted = new Set(operations.filter((o) => o.method === 'post').map((o) => trimSlash(o.path)));
  const gets = operations.filter((o) => o.method === 'get');
  const listed = new Set(gets.map((o) => trimSlash(o.path)));
  // Each collection path's item read, by the path it is the item of.
  const reads = new Map<string, ContractOperation>();
  for (const get of gets) {
    const base = itemPathOf(get.path);
    if (base !== undefined && !reads.has(base)) reads.set(base, get);
  }
  for (const path of listed) {
    const item = reads.get(path);
    if (posted.has(path) || path.endsWith('}') || !item) continue;
    const parameter = normalisedName(lastTemplate(item.path));
    // The noun's own id (`userId` of /users), never a bare `id`: only that tells whose record an answer names.
    if (parameter !== `${normalisedName(singular(lastWord(path)))}id`) continue;
    const parent = parentOfPath(path);
    const makers = operations.filter((o) => {
      const at = trimSlash(o.path);
      if (o.method !== 'post' || at === path || listed.has(at) || at.endsWith('}') || parentOfPath(at) !== parent || !o.responses.has(201)) return false;
      const answer = firstJson(o.responses.get(201)?.content);
      return answer !== undefined && isObjectMedia(answer) && answer.properties.some((name) => normalisedName(name) === parameter);
    });
    if (makers.length === 1) made.set((makers[0] as ContractOperation).operationId, path);
  }
  return made;
}

/** A name as its spellings agree: `station_id`, `stationId` and `Station-ID` all read `stationid`. */
export function normalisedName(name: string): string {
  return name.toLowerCase().replace(/[-_ ]/g, '');
}

/** `/plants` for `/plants/{id}`: a path whose last segment is a single template. */
export function itemPathOf(path: string): string | undefined {
  const match = /^(.*)\/\{[^/{}]+\}\/?$/.exec(path);
  // `/{id}` is the item path of the collection at the root, `/`.
  return match?.[1] === '' ? '/' : match?.[1];
}

function lastTemplate(path: string): string {
  return (/\{([^/{}]+)\}\/?$/.exec(path) as RegExpExecArray)[1] as string;
}

/**
 * Where a collection at `path` belongs: under the collection whose item path is its prefix (its
 * parent, whose scopes it keeps), or, with no parent, under scopes alone: every template of the path
 * names something no operation creates (no POST at the path before it, no PUT at the template
 * itself), so the client already has it and no record of the mock's stands for it. Undefined when a
 * template names what an operation does create but no collection stores (or is no parent's).
 */
function placementOf(path: string, collections: readonly Collection[], operations: readonly ContractOperation[]): { parent: Collection['parent']; scope: readonly string[] } | undefined {
  const parent = parentOf(path, collections);
  if (parent) return { parent, scope: parent.collection.scope ?? [] };
  const scope: string[] = [];
  for (const match of path.matchAll(/\{([^/{}]+)\}/g)) {
    const before = trimSlash(path.slice(0, match.index)) || '/';
    const at = path.slice(0, match.index + match[0].length);
    const created = operations.some((o) => (o.method === 'post' && trimSlash(o.path) === before) || (o.method === 'put' && trimSlash(o.path) === at));
    if (created) return undefined;
    scope.push(match[1] as string);
  }
  return { parent: undefined, scope };
}

function parentOf(path: string, collections: readonly Collection[]): Collection['parent'] {
  const parentItem = /^(.*\/\{[^/{}]+\})\/[^/{}]+$/.exec(path)?.[1];
  const collection = parentItem === undefined ? undefined : collections.find((c) => c.itemPath !== undefined && trimSlash(c.itemPath) === parentItem);
  return collection && { collection, parameter: collection.itemParameter as string };
}

/**
 * The member a JSON body wraps its resource in: an object schema declaring exactly one property
 * (required or not, and nothing else, union branches included) whose own schema is an object
 * (`{"article": {...}}`). OpenAPI says nothing more of a body that is one named object; the
 * collection rule asks the create's request and answer to agree on the name (envelopeAcross).
 */
export function envelopeOf(media: ContractMediaType | undefined): string | undefined {
  if (!media?.schema || !isObjectMedia(media) || media.propertySchemas.size !== 1) return undefined;
  const [property, schema] = [...media.propertySchemas][0] as [string, Schema];
  if (media.required.some((name) => name !== property)) return undefined;
  const types = typesOf(schema);
  const object = types.includes('object') || (types.length === 0 && (isObject(schema.properties) || Array.isArray(schema.allOf)));
  return object && !types.includes('array') ? property : undefined;
}

/** The envelope a create's request and its answer (or the item read's) both declare, by the same name. */
function envelopeAcross(sent: ContractMediaType, create: ContractOperation, read: ContractOperation | undefined): string | undefined {
  const property = envelopeOf(sent);
  if (property === undefined) return undefined;
  return [successMedia(create), read && successMedia(read)].some((answer) => envelopeOf(answer) === property) ? property : undefined;
}

/**
 * The inner object of a body that is the envelope `property`, as a media type of its own: its
 * properties, required names, shapes and examples, and a validator that judges a value as the
 * envelope holding it (the outer schema's own validator, its errors' paths read from inside).
 * Undefined when `media` is not that envelope.
 */
export function envelopedMedia(media: ContractMediaType, property: string, document: unknown): ContractMediaType | undefined {
  if (envelopeOf(media) !== property) return undefined;
  // As declared (refs followed at the top, allOf parts kept): every reader below walks the parts itself, nested ones too.
  const schema = withRefSiblings(resolveRef(media.schema, document), property) ?? (media.propertySchemas.get(property) as Schema);
  const properties = declaredProperties(schema, document);
  const prefix = `/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const judge = (value: unknown): boolean => {
    const outer = media.validate;
    if (!outer) return true;
    const valid = outer({ [property]: value });
    judge.errors = valid
      ? null
      : (outer.errors ?? []).map((error) => ({ ...error, instancePath: error.instancePath.startsWith(prefix) ? error.instancePath.slice(prefix.length) : error.instancePath }));
    return valid;
  };
  judge.errors = null as ValidateFunction['errors'];
  let plan: { value: ExactPlan | undefined } | undefined;
  const inner = {
    mediaType: media.mediaType,
    schema,
    validate: judge as unknown as ValidateFunction,
    properties: [...properties.keys()],
    propertySchemas: properties,
    required: [...flattenObject(schema, document).required],
    type: 'object',
    itemProperties: undefined,
    maxItems: undefined,
    arrayProperties: new Map(
      [...properties]
        .filter(([, member]) => typesOf(member).includes('array') && isObject(member.items))
        .map(([name, member]): [string, ReadonlySet<string>] => [name, new Set(declaredProperties(member.items, document).keys())]),
    ),
    propertySet: new Set(properties.keys()),
    examples: media.examples
      .filter((example) => isObject(example.value) && property in example.value)
      .map((example) => ({ name: example.name, value: (example.value as Record<string, unknown>)[property] })),
    // On first use, as the outer body's own plan (compile.ts).
    get exactPlan() {
      return (plan ??= { value: exactPlanDeclaring(media.exactPlan?.properties?.get(property) ?? media.exactPlan?.rest, properties.keys()) }).value;
    },
  };
  return withSchemaShapes(inner, schema, document);
}

/**
 * The member `property` of `outer` when it is a $ref with sibling keywords, as the validator reads it
 * in 3.1 (JSON Schema 2020-12: the siblings apply beside the ref): the siblings with the ref as an
 * allOf part. Lago's `add_on: {$ref: AddOnBaseInput, required: [name, code, …]}` requires what the
 * component leaves optional. Undefined for any other member (its schema is the ref's target).
 */
function withRefSiblings(outer: unknown, property: string): Schema | undefined {
  const declared = isObject(outer) && isObject(outer.properties) ? outer.properties[property] : undefined;
  if (!isObject(declared) || typeof declared.$ref !== 'string') return undefined;
  const { $ref, ...siblings } = declared;
  return Object.keys(siblings).length ? { ...siblings, allOf: [{ $ref }, ...(Array.isArray(siblings.allOf) ? siblings.allOf : [])] } : undefined;
}

/**
 * How a create's success answer holds the records it made, when it answers them as a list (OpenAPI
 * gives a create's answer any schema: a bulk create answers what it made in the list's shape): an
 * array whose items declare the identity, or an object that declares no identity of its own with an
 * array member whose items do, where the request body holds no records in that member. Undefined when
 * the answer is the record (or declares no identity).
 */
function createdAsList(create: ContractOperation, identity: string): ListShape | undefined {
  const media = successMedia(create);
  if (!media) return undefined;
  if (media.type === 'array') return media.itemProperties?.has(identity) === true ? { kind: 'array' } : undefined;
  if (media.propertySet.has(identity)) return undefined;
  const member = [...media.arrayProperties].find(([, items]) => items.has(identity))?.[0];
  // A request body holding records in that same member (Xero's `POST /Statements {items: [...]}`) is a batch, not one record: its answer is no record's.
  if (member === undefined || firstJson(create.requestBody?.content)?.arrayProperties.has(member) === true) return undefined;
  return { kind: 'wrapped', property: member };
}

/**
 * The array member of a create's request body that carries the records it makes (Xero's
 * `POST /FeedConnections {items: [FeedConnection]}`, answered `{items: [...]}` too), or undefined
 * for a body that is one record. The records are those the item path reads: every property of the
 * read's answer is among the member's items' properties, and none among the body's own. A body that
 * is a page of records is no record: stored as one, its answer would show no identity and its list
 * would hold pages.
 */
function batchMember(sent: ContractMediaType, create: ContractOperation, read: ContractOperation | undefined): string | undefined {
  const record = read && successMedia(read);
  if (!record || !isObjectMedia(record) || record.propertySet.size === 0) return undefined;
  if ([...record.propertySet].some((name) => sent.propertySet.has(name))) return undefined;
  const answered = successMedia(create)?.arrayProperties;
  return [...sent.arrayProperties].find(([member, items]) => answered?.has(member) === true && [...record.propertySet].every((name) => items.has(name)))?.[0];
}

function successMedia(operation: ContractOperation): ContractMediaType | undefined {
  return firstJson(successOf(operation)?.response.content);
}

function isObjectMedia(media: ContractMediaType): boolean {
  return media.type === 'object' || (media.type === undefined && media.properties.length > 0);
}

function jsonType(schema: Schema | undefined): Identity['type'] {
  const types = Array.isArray(schema?.type) ? (schema?.type as unknown[]).filter((t) => t !== 'null') : [schema?.type];
  return types.length === 1 && types[0] === 'integer' ? 'integer' : types.length === 1 && types[0] === 'string' ? 'string' : 'other';
}

/**
 * The identity's JSON type. A `number` the client never sends, assigned from the integer sequence
 * (Overseerr's readOnly `RadarrSettings.id: {type: number}` behind `{radarrId}: integer`), is stored
 * as the integer it is: kept as text, every answer's schema would refuse it and the projection
 * would answer a sample (`0`) in its place.
 */
function identityTypeOf(schema: Schema | undefined, assigned: Identity['assigned']): Identity['type'] {
  const type = jsonType(schema);
  return type === 'other' && assigned === 'sequence' && isNumberSchema(schema) ? 'integer' : type;
}

/**
 * The branch of a union identity that names one record: a schema without a type of its own whose
 * `oneOf`/`anyOf` holds the item path parameter's type (pi-hole's group `name`: a name or an array of
 * names, behind `/groups/{name}: string`). A path segment holds one value of that type, so the
 * identity's keys are of that branch; the others (a batch of names) create records under keys
 * of their own, never under one segment. Any other schema is the identity's schema as it is.
 */
function keyBranchOf(schema: Schema | undefined, parameter: Schema | undefined, document: unknown): Schema | undefined {
  if (schema === undefined || schema.type !== undefined) return schema;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  const wanted = jsonType(parameter);
  if (branches === undefined || wanted === 'other') return schema;
  const branch = branches.map((b) => resolveRef(b, document)).find((b): b is Schema => isObject(b) && jsonType(b) === wanted);
  return branch ?? schema;
}

function isNumberSchema(schema: Schema | undefined): boolean {
  const types = Array.isArray(schema?.type) ? (schema?.type as unknown[]).filter((t) => t !== 'null') : [schema?.type];
  return types.length === 1 && types[0] === 'number';
}

/**
 * How an assigned identity is made: what the item path parameter accepts (a value GET P/{x} would
 * refuse names no record), read with the identity's own schema where the parameter says less.
 */
function assignedOf(identity: Schema | undefined, parameter: Schema | undefined): Pick<Identity, 'assigned' | 'pattern'> {
  const type = jsonType(identity);
  const stringy = type === 'string' || (type === 'other' && jsonType(parameter) === 'string');
  if (type === 'integer' || (type === 'other' && jsonType(parameter) === 'integer')) return { assigned: 'sequence' };
  // A `number` identity behind a number or plain string parameter (Overseerr's MediaRequest.id behind `{requestId}: string`,
  // Issue.id behind `{issueId}: number`): the sequence's integers are numbers in the body and their digits fit the path.
  const plainString = jsonType(parameter) === 'string' && parameter?.pattern === undefined && parameter?.format === undefined;
  if (isNumberSchema(identity) && (parameter === undefined || isNumberSchema(parameter) || plainString)) return { assigned: 'sequence' };
  if (!stringy) return { assigned: 'string' };
  const schemas = [parameter, identity].filter((s): s is Schema => s !== undefined && jsonType(s) !== 'integer');
  if (schemas.some((s) => s.format === 'uuid')) return { assigned: 'uuid' };
  const patterned = schemas.find((s) => typeof s.pattern === 'string');
  if (!patterned) return { assigned: 'string' };
  const { pattern, minLength, maxLength, format } = patterned;
  return {
    assigned: 'pattern',
    pattern: {
      pattern: pattern as string,
      ...(typeof minLength === 'number' ? { minLength } : {}),
      ...(typeof maxLength === 'number' ? { maxLength } : {}),
      ...(typeof format === 'string' ? { format } : {}),
    },
  };
}

/**
 * The member of an object identity that the item path parameter carries: a path segment holds a
 * scalar (a `simple` object would be written `value,<uuid>`, which the parameter's own schema
 * refuses), so when the identity property is an object (openEHR's `ehr_id: HIER_OBJECT_ID {_type,
 * value}` behind `{ehr_id}: {type: string, format: uuid}`), the record is named by its one member
 * of the parameter's type and format. A fixed member (a `const`, an enum of one value: a type tag)
 * names no record; where several fit, the one the object requires. Undefined when none or several
 * do, or the identity is no object.
 */
function identityMember(identity: Schema | undefined, parameter: Schema | undefined, document: unknown): { name: string; schema: Schema } | undefined {
  const wanted = jsonType(parameter);
  if (identity === undefined || parameter === undefined || wanted === 'other') return undefined;
  const resolved = resolveRef(identity, document);
  if (!isObject(resolved) || jsonType(resolved) !== 'other') return undefined;
  const flat = flattenObject(resolved, document);
  const types = typesOf(mergeAllOf(resolved, document));
  if (flat.properties.size === 0 || (types.length > 0 && !types.includes('object'))) return undefined;
  const fits = [...flat.properties].filter(([, schema]) => {
    if (jsonType(schema) !== wanted || 'const' in schema || (Array.isArray(schema.enum) && schema.enum.length <= 1)) return false;
    return (parameter.format === undefined || schema.format === parameter.format) && (parameter.pattern === undefined || schema.pattern === undefined || schema.pattern === parameter.pattern);
  });
  const chosen = fits.length === 1 ? fits : fits.filter(([name]) => flat.required.has(name));
  return chosen.length === 1 ? { name: (chosen[0] as [string, Schema])[0], schema: (chosen[0] as [string, Schema])[1] } : undefined;
}

/**
 * The item path parameter's schema (`{id}` of `/things/{id}`), as its operations declare it. Where
 * they declare it differently, the first with a `format` or `pattern`: an identity the mock assigns
 * must be one every operation on the record takes, and a plain string takes it (openEHR's
 * compositions: `{uid_based_id}` a string to GET and DELETE, `format: uuid` to PUT; assigned "1",
 * the record could never be replaced).
 */
function itemSchemaOf(operations: readonly ContractOperation[], itemPath: string | undefined, itemParameter: string | undefined): Schema | undefined {
  if (itemPath === undefined || itemParameter === undefined) return undefined;
  let first: Schema | undefined;
  for (const operation of operations) {
    if (operation.path !== itemPath) continue;
    const found = operation.parameters.find((p) => p.in === 'path' && p.name === itemParameter);
    if (!found?.schema) continue;
    const schema = found.inlined ?? found.schema;
    if (schema.format !== undefined || schema.pattern !== undefined) return schema;
    first ??= schema;
  }
  return first;
}

/**
 * Whether a POST's success answers only in types no record is written in (`text/plain`, an
 * image): a render, a hook, a command — not a create, whatever its path (a JSON or XML answer,
 * or none at all, can be one).
 */
function answersNoRecord(operation: ContractOperation): boolean {
  const types = [...(successOf(operation)?.response.content.keys() ?? [])];
  return types.length > 0 && !types.some((type) => isJsonMediaType(type) || isXmlMediaType(type) || type.includes('*'));
}

/**
 * Without an item path P/{x}, the schema of a path parameter named as the identity elsewhere
 * (`/silence/{silenceID}` beside `/silences`, whose create answers `silenceID`): the value the mock
 * assigns is one the client can send back there (a UUID where it says `format: uuid`).
 */
function namesakeSchemaOf(operations: readonly ContractOperation[], itemPath: string | undefined, property: string): Schema | undefined {
  if (itemPath !== undefined) return undefined;
  for (const operation of operations) {
    const found = operation.parameters.find((p) => p.in === 'path' && p.name === property);
    if (found?.schema) return found.inlined ?? found.schema;
  }
  return undefined;
}

function segments(path: string): number {
  return path.split('/').length;
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The path's last fixed segment; empty for a collection at the root (`/`), which names no noun. */
function lastWord(path: string): string {
  return (
    path
      .split('/')
      .filter((s) => s !== '' && !s.startsWith('{'))
      .pop() ?? ''
  );
}

/** `plant` for `plants`, `category` for `categories`, `box` for `boxes`: enough for messages. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The component name of the create body schema (`NewPlant`), when it is a plain $ref. */
function schemaName(operation: ContractOperation): string | undefined {
  const ref = firstJson(operation.requestBody?.content)?.schema?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

/**
 * What the CRUD rule inferred of a collection, in one line a person reads at start and in
 * `/__mock/spec`: its paths, its identity and who makes it, its list's shape and paging.
 */
export function inferredLine(collection: Collection, stateful: ReadonlyMap<string, StatefulOperation>): string {
  const { identity } = collection;
  const made =
    collection.atTarget !== undefined
      ? `named by the client in the path (created at ${collection.itemPath})`
      : identity.assigned === undefined
        ? 'sent by the client'
        : `${identity.optional ? 'sent by the client, else ' : ''}assigned by the mock (${identity.assigned === 'sequence' ? 'an integer sequence' : identity.assigned === 'uuid' ? 'a UUID' : identity.assigned === 'pattern' ? `matching ${identity.pattern?.pattern}` : 'a string'})`;
  const operations = [...stateful].filter(([, operation]) => operation.collection === collection);
  const list = operations.find(([, operation]) => operation.list)?.[1].list;
  const paging = list && [list.paging.size, list.paging.offset, list.paging.page, list.paging.cursor].filter((name) => name !== undefined);
  const shape = list === undefined ? 'no list' : list.shape.kind === 'array' ? 'listed as an array' : `listed in ${list.shape.property}`;
  const paths = [collection.path, collection.itemPath].filter((path) => path !== undefined).join(', ');
  const where = identity.inPathOnly ? ' (only in the path)' : '';
  const scoped = collection.scope?.length ? `, scoped by ${collection.scope.join(', ')}` : '';
  return `${paths}${scoped}: identity ${identity.property}${identity.member === undefined ? '' : `.${identity.member}`}${where}, ${made}; ${shape}${paging?.length ? `, paged by ${paging.join('/')}` : list ? ', unpaged' : ''}; ${operations.map(([, operation]) => operation.role).join(', ')}`;
}
