/**
 * `GET /__mock/spec`: what the inspector shows of the loaded spec, decided here rather than by
 * parsing the document in the browser — its title and version, the collections the mock serves
 * from its store (each nested one under its parent), its singleton documents, and every operation with what its "Try it"
 * form needs: parameters, a body pre-filled from the spec's example (or one generated from the
 * schema, as the mock generates its answers: openapi/schema/sample.ts), the security schemes it takes and what
 * `Prefer` may ask of it. Built once per engine (`--watch` makes a new one) with an ETag, so a
 * page can poll it for reloads at the cost of a 304.
 */
import { createHash } from 'node:crypto';
import { isJsonMediaType } from '../../openapi/media-types.js';
import type { ContractMediaType, ContractOperation, SecurityScheme } from '../../openapi/operations/model.js';
import type { Engine } from '../engine/context.js';
import { inferredLine, type Collection, type Singleton } from '../../openapi/operations/collections.js';
import type { ValidatingProxy } from '../proxy/proxy.js';
import type { Answer } from '../http/answer.js';
import { generatedRequestBody } from './body-prefill.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { ADMIN_PREFIX } from './prefix.js';

/** A pre-filled body longer than this is cut to an empty editor: the spec's example is for reading, not this form. */
const MAX_EXAMPLE_CHARS = 64 * 1024;
/** A description is shown as a hint; a novel is cut. */
const MAX_TEXT_CHARS = 2000;

export interface ParameterView {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  /** The schema's type, for the input's hint. */
  type?: string;
  /** The allowed values, when the schema lists them. */
  enum?: string[];
  /** What the form starts with: the parameter's or its schema's example, default or first enum value. */
  example?: string;
}

export interface OperationView {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  stateful: boolean;
  /** Why the mock answers it from the spec's examples rather than its store, when it does. */
  stateless?: string;
  /** What the operation does to its collection (create, list, read, replace, patch, delete) or its singleton document (read, replace, patch, delete), when stateful. */
  role?: string;
  /** The collection path it serves, when stateful over a collection. */
  collection?: string;
  /** The singleton document's path template it serves, when it serves one. */
  singleton?: string;
  parameters: ParameterView[];
  body?: {
    mediaType: string;
    required: boolean;
    /** JSON text: the spec's example, or one generated from the schema. */
    example: string;
    /** Where `example` came from. */
    from: 'example' | 'schema' | 'none';
  };
  /** Alternatives, each the scheme names that must all be satisfied; empty when none is needed. */
  security: string[][];
  /** Statuses `Prefer: code=` may force. */
  forceable: number[];
  /** The named examples of each declared response, for `Prefer: example=`. */
  examples: Record<string, string[]>;
}

export interface CollectionView {
  path: string;
  itemPath?: string;
  resource: string;
  noun: string;
  identity: string;
  /** The admin route listing it (GET), seeding it (POST). */
  admin: string;
  /** The collection whose item path this one's path extends (`/trips` for `/trips/{tripId}/bookings`). */
  parent?: string;
  /** The path parameter naming the parent record (`tripId`). */
  parentParameter?: string;
  /** The path parameters no operation creates that its records are kept apart by (`accountId`). */
  scope?: readonly string[];
  operations: string[];
  /** What the mock inferred of it, in words: paths, identity and who makes it, list shape, paging, roles. */
  inferred: string;
}

/** A singleton document (openapi/operations/collections.ts): one per concrete path, at `/__mock` + that path. */
export interface SingletonView {
  /** The path as the spec writes it: `/users/{id}/profile`, `/settings`. */
  path: string;
  /** The admin route reading (GET), seeding (PUT) and forgetting (DELETE) it, its parents' templates to fill with real ids. */
  admin: string;
  /** The collection whose record it belongs to (`/users` for `/users/{id}/profile`). */
  parent?: string;
  /** The path parameter naming that record (`id`). */
  parentParameter?: string;
  /** Its operations by role: read and replace always, patch and delete when the spec declares them. */
  operations: { operationId: string; role: string }[];
}

export interface SchemeView {
  name: string;
  kind: SecurityScheme['kind'];
  /** For an API key: where it goes and under which name. */
  in?: 'header' | 'query' | 'cookie';
  parameter?: string;
}

export interface SpecView {
  title: string;
  version: string;
  source: string;
  description?: string;
  collections: CollectionView[];
  singletons: SingletonView[];
  operations: OperationView[];
  securitySchemes: SchemeView[];
  /** The document's flaws loaded anyway, one line each naming the pointer (openapi/document/load.ts). */
  warnings: readonly string[];
}

interface Built {
  body: string;
  etag: string;
}

const built = new WeakMap<Engine, Built>();

/** The answer to `GET /__mock/spec`: the view as JSON with its ETag, or a 304 when the page has it already. */
export async function specAnswer(engine: Engine, proxy: ValidatingProxy | undefined, ifNoneMatch: string | undefined): Promise<Answer> {
  let view = proxy ? undefined : built.get(engine);
  if (!view) {
    const body = JSON.stringify({ ...(await describeSpec(engine, proxy !== undefined)), ...(proxy ? proxy.describe() : {}) });
    view = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    if (!proxy) built.set(engine, view);
  }
  const headers = { etag: view.etag, 'cache-control': 'no-cache' };
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === view.etag)) return { status: 304, headers };
  return { status: 200, body: view.body, headers: { 'content-type': 'application/json', ...headers } };
}

/** The spec being served as the inspector shows it (in proxy mode: no collections, nothing stateful). */
export async function describeSpec(engine: Engine, proxied: boolean): Promise<SpecView> {
  const { contract } = engine;
  const collections = proxied ? [] : engine.collections;
  // Loaded when the inspector first asks (randexp, for a pattern): a mock that is never inspected starts without it.
  const { PatternStrings } = await import('../../openapi/schema/pattern-strings.js');
  const patterns = new PatternStrings();
  const operations: OperationView[] = [];
  for (const routed of engine.routes.operations) {
    const stateful = proxied ? undefined : engine.stateful.get(routed.operationId);
    const singleton = proxied ? undefined : engine.singletons.get(routed.operationId);
    const raw = record(await engine.dereferenced.get(routed.operationId));
    operations.push({
      operationId: routed.operationId,
      method: routed.method,
      path: routed.path,
      ...text('summary', raw.summary),
      ...text('description', raw.description),
      stateful: !proxied && routed.stateful,
      ...(!proxied && !routed.stateful && engine.stateless.has(routed.operationId) ? { stateless: engine.stateless.get(routed.operationId) } : {}),
      ...(stateful ? { role: stateful.role, collection: stateful.collection.path } : {}),
      ...(singleton ? { role: singleton.role, singleton: singleton.singleton.path } : {}),
      parameters: parametersOf(routed.contract, raw),
      ...bodyOf(routed.contract, contract.document, patterns),
      security: routed.contract.security.map((requirement) => [...requirement]),
      forceable: [...routed.forceable],
      examples: Object.fromEntries(
        [...routed.contract.responses].flatMap(([status, response]) => {
          const names = [...response.content.values()].flatMap((media) => media.examples.map((example) => example.name));
          return names.length ? [[String(status), [...new Set(names)]]] : [];
        }),
      ),
    });
  }
  return {
    title: contract.title,
    version: contract.version,
    source: contract.source,
    ...text('description', contract.description),
    collections: collections.map((collection) => collectionView(collection, engine)),
    singletons: proxied ? [] : singletonViews(engine),
    operations,
    securitySchemes: [...contract.securitySchemes.values()].map((scheme) => ({
      name: scheme.name,
      kind: scheme.kind,
      ...(scheme.kind === 'api-key' ? { in: scheme.in, parameter: scheme.parameter } : {}),
    })),
    warnings: contract.warnings,
  };
}

function collectionView(collection: Collection, engine: Engine): CollectionView {
  return {
    path: collection.path,
    ...(collection.itemPath ? { itemPath: collection.itemPath } : {}),
    resource: collection.resource,
    noun: collection.noun,
    identity: collection.identity.property,
    admin: `${ADMIN_PREFIX}${collection.path}`,
    ...(collection.parent ? { parent: collection.parent.collection.path, parentParameter: collection.parent.parameter } : {}),
    ...(collection.scope?.length ? { scope: collection.scope } : {}),
    operations: [...engine.stateful].filter(([, operation]) => operation.collection === collection).map(([operationId]) => operationId),
    inferred: inferredLine(collection, engine.stateful),
  };
}

/** Each singleton document once, in the order of its operations in the spec. */
function singletonViews(engine: Engine): SingletonView[] {
  const views = new Map<Singleton, SingletonView>();
  for (const [operationId, { role, singleton }] of engine.singletons) {
    let view = views.get(singleton);
    if (!view) {
      view = {
        path: singleton.path,
        admin: `${ADMIN_PREFIX}${singleton.path}`,
        ...(singleton.parent ? { parent: singleton.parent.collection.path, parentParameter: singleton.parent.parameter } : {}),
        operations: [],
      };
      views.set(singleton, view);
    }
    view.operations.push({ operationId, role });
  }
  return [...views.values()];
}

function parametersOf(operation: ContractOperation, raw: Record<string, unknown>): ParameterView[] {
  const rawParameters = Array.isArray(raw.parameters) ? raw.parameters.map(record) : [];
  return operation.parameters.map((parameter) => {
    const sameName = (name: unknown): boolean => typeof name === 'string' && (parameter.in === 'header' ? name.toLowerCase() === parameter.name.toLowerCase() : name === parameter.name);
    const declared = rawParameters.find((p) => sameName(p.name) && p.in === parameter.in) ?? {};
    const schema = parameter.schema ?? {};
    const values = Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null && typeof v !== 'object').map(String) : undefined;
    const examples = record(declared.examples);
    const firstNamed = Object.values(examples).map(record)[0]?.value;
    const example = [declared.example, firstNamed, schema.example, Array.isArray(schema.examples) ? schema.examples[0] : undefined, schema.default, values?.[0]].find(
      (value) => value !== undefined && value !== null,
    );
    return {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      ...text('description', declared.description),
      ...(typeof schema.type === 'string' ? { type: schema.type } : {}),
      ...(values?.length ? { enum: values } : {}),
      ...(example === undefined ? {} : { example: typeof example === 'object' ? JSON.stringify(example) : String(example) }),
    };
  });
}

function bodyOf(operation: ContractOperation, document: unknown, patterns: PatternStrings): Pick<OperationView, 'body'> {
  const content = operation.requestBody?.content;
  if (!content || content.size === 0) return {};
  const [mediaType, media] = [...content].find(([type]) => isJsonMediaType(type)) ?? ([...content][0] as [string, ContractMediaType]);
  let example: string | undefined;
  let from: 'example' | 'schema' | 'none' = 'none';
  if (media.examples.length) {
    example = JSON.stringify(media.examples[0]?.value, null, 2);
    from = 'example';
  } else {
    const generated = generatedRequestBody(media, document, patterns);
    if (generated !== undefined) {
      example = JSON.stringify(generated, null, 2);
      from = 'schema';
    }
  }
  if (example === undefined || example.length > MAX_EXAMPLE_CHARS) {
    example = '';
    from = 'none';
  }
  return { body: { mediaType, required: operation.requestBody?.required ?? false, example, from } };
}

function text<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  if (typeof value !== 'string' || value === '') return {};
  return { [key]: value.length > MAX_TEXT_CHARS ? `${value.slice(0, MAX_TEXT_CHARS)}…` : value } as Partial<Record<K, string>>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
