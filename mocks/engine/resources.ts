/**
 * Which operations of the spec the mock serves from its store, and how it recognises them.
 *
 * A collection is a path P with a POST whose JSON request body declares the identity property
 * (`id` unless --identity names another): that POST creates records. Over the same records the
 * mock then serves, when the spec declares them:
 *   GET P            the records in creation order (a JSON array answer), or
 *   GET P/{x}        one record, {x} being its identity value,
 *   PUT P/{x}        replaced, PATCH P/{x} merged (RFC 7396), DELETE P/{x} forgotten.
 * Everything else, and every operation named by --stateless, is answered from the spec's examples,
 * as Prism answers it.
 */
import { isJsonMediaType, mediaEssence, type CompiledContract, type ContractMediaType, type ContractOperation } from '../../spec/contract.js';
import { identityOf, type Identity } from './records.js';

export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'patch' | 'delete';

export interface Collection {
  /** The collection path, `/plants`; also the store's collection name. */
  path: string;
  /** The item path, `/plants/{id}`, when the spec has one. */
  itemPath: string | undefined;
  /** The create body schema's name (`NewPlant`), or the path's last word: what a valid body is called. */
  resource: string;
  /** What a person calls one record: the path's last word in the singular (`plant`). */
  noun: string;
  identity: Identity;
  create: ContractOperation;
  /** The create body's JSON media type: its validator and the properties a record keeps. */
  body: ContractMediaType;
  /** The properties a record keeps. */
  declared: ReadonlySet<string>;
}

export interface StatefulOperation {
  role: ResourceRole;
  collection: Collection;
}

export interface RecognitionOptions {
  /** The property that identifies a record (default `id`). */
  identity?: string;
  /** operationIds answered from examples even when recognised; `all` turns every stateful answer off. */
  stateless?: ReadonlySet<string> | 'all';
}

export const DEFAULT_IDENTITY = 'id';

/** The stateful operations of a contract, by operationId, and the collections they serve. */
export function recogniseResources(
  contract: CompiledContract,
  options: RecognitionOptions = {},
): { collections: Collection[]; stateful: Map<string, StatefulOperation> } {
  const property = options.identity ?? DEFAULT_IDENTITY;
  const stateless = options.stateless ?? new Set<string>();
  const off = (operation: ContractOperation): boolean => stateless === 'all' || stateless.has(operation.operationId);
  const collections: Collection[] = [];
  const stateful = new Map<string, StatefulOperation>();
  const operations = [...contract.operations.values()];
  for (const create of operations) {
    if (create.method !== 'post' || off(create) || /\}\/?$/.test(create.path)) continue;
    const body = jsonContent(create.requestBody?.content);
    if (!body?.validate || !body.propertySchemas.has(property)) continue;
    const path = create.path.replace(/\/$/, '');
    const item = operations.find((o) => o.path !== create.path && itemPathOf(o.path) === path)?.path;
    const collection: Collection = {
      path,
      itemPath: item,
      resource: schemaName(create) ?? path.split('/').pop() ?? path,
      noun: singular(path.split('/').pop() || 'record'),
      identity: identityOf(property, body.propertySchemas.get(property)),
      create,
      body,
      declared: body.propertySet,
    };
    collections.push(collection);
    stateful.set(create.operationId, { role: 'create', collection });
    for (const operation of operations) {
      if (off(operation) || stateful.has(operation.operationId)) continue;
      const role = roleOf(operation, collection);
      if (role) stateful.set(operation.operationId, { role, collection });
    }
  }
  return { collections, stateful };
}

function roleOf(operation: ContractOperation, collection: Collection): ResourceRole | undefined {
  const onCollection = operation.path.replace(/\/$/, '') === collection.path;
  const onItem = collection.itemPath !== undefined && operation.path === collection.itemPath;
  if (onCollection && operation.method === 'get') return answersArray(operation) ? 'list' : undefined;
  if (!onItem) return undefined;
  switch (operation.method) {
    case 'get':
      return 'read';
    case 'put':
      return jsonContent(operation.requestBody?.content) ? 'replace' : undefined;
    case 'patch':
      return jsonContent(operation.requestBody?.content) ? 'patch' : undefined;
    case 'delete':
      return 'delete';
    default:
      return undefined;
  }
}

/** `/plants` for `/plants/{id}`: a path whose last segment is a single template. */
function itemPathOf(path: string): string | undefined {
  const match = /^(.*)\/\{[^/{}]+\}\/?$/.exec(path);
  return match?.[1];
}

/** The item path's template parameter (`id` of `/plants/{id}`). */
export function itemParameter(itemPath: string): string {
  return (/\{([^/{}]+)\}\/?$/.exec(itemPath) as RegExpExecArray)[1] as string;
}

function answersArray(operation: ContractOperation): boolean {
  const success = operation.successStatus === undefined ? undefined : operation.responses.get(operation.successStatus);
  return jsonContent(success?.content)?.type === 'array';
}

/** The first JSON media type of a content map. */
export function jsonContent(content: ReadonlyMap<string, ContractMediaType> | undefined): ContractMediaType | undefined {
  for (const [mediaType, entry] of content ?? []) if (isJsonMediaType(mediaEssence(mediaType))) return entry;
  return undefined;
}

/** `plant` for `plants`, `category` for `categories`, `box` for `boxes`: enough for messages. */
function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The component name of the create body schema (`NewPlant`), when it is a plain $ref. */
function schemaName(operation: ContractOperation): string | undefined {
  const ref = jsonContent(operation.requestBody?.content)?.schema?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}
