/**
 * One compiled contract: an OpenAPI 3.1 document read once and turned into everything the tools
 * need from it — each operation by operationId (method, path, parameters, security), its request
 * body (media types, a validator), and for each declared response status and media type a
 * validator, the declared properties and the examples. The mock, the Prism mock, the fixture
 * loader and the contract suite all receive this object as data; nothing is bound to the bundled
 * file.
 *
 * Validators are Ajv 2020-12 (OpenAPI 3.1's dialect) with exact int32/int64 (openapi/schema/ajv.ts) and run
 * on the view that `parseExactJson` returns.
 */
import type { ValidateFunction } from 'ajv';
import { CONTRACT_AJV_OPTIONS, createSpecAjv } from '../schema/ajv.js';
import { boundedValidator } from '../schema/bounded-validation.js';
import { ajvRefusal } from '../schema/ajv-refusals.js';
import { discriminatorsAsConditions } from '../schema/discriminator.js';
import { defPointers, endlessRound } from '../schema/cycles.js';
import { META_SCHEMA_ID, validateMetaSchema } from '../schema/meta-schema.gen.js';
import { refusedPatterns } from '../schema/patterns.js';
import { exactPlanDeclaring, exactPlanOf, READ_EVERY_NUMBER, type ExactPlan } from '../schema/exact-json.js';
import { dropRefusedKeywords } from '../document/refused-keywords.js';
import type { ParsedTextCache } from '../document/parsed-text-cache.js';
import { completeDocument, ContractError, HTTP_METHODS, loadDocument, loadDocumentSync, type LoadedDocument } from '../document/load.js';
import { SPEC_PATH } from '../plant-store.js';
import { parameterReader, type ParameterStyle } from './parameters.js';
import { readLinks } from './links.js';
import { serverBasePaths } from './paths.js';
import { withSchemaShapes } from './body-shapes.js';
import type { CompiledContract, ContractExample, ContractMediaType, ContractOperation, ContractParameter, ContractResponse, SecurityRequirement, SecurityScheme } from './model.js';
import { declaredProperties, flattenObject } from '../schema/shape.js';
import { mapSubschemas } from '../schema/keywords.js';
import { escapePointerToken, isObject, jsonPointer, pointerTarget, refProblem, resolveRef, unescapePointerToken, type Schema } from '../schema/resolve.js';
/** Reads and compiles the document at `path` (the bundled spec by default); one that refers to other files needs `readContract`. */
export function loadContract(path: string = SPEC_PATH): CompiledContract {
  return compileLoaded(loadDocumentSync(path));
}

/**
 * Reads, bundles (files beside it), upgrades (3.0, Swagger 2.0) and compiles the document at
 * `path`: what every tool does with a user's spec (openapi/document/load.ts says how).
 */
export async function readContract(path: string = SPEC_PATH, overlays: readonly string[] = [], parsed?: ParsedTextCache): Promise<CompiledContract> {
  return compileLoaded(await loadDocument(path, overlays, parsed));
}

/** Compiles a parsed document (upgraded and completed first); `source` names it in errors. */
export function compileContract(document: unknown, source: string): CompiledContract {
  return compileLoaded(completeDocument(document, source));
}

/**
 * The loaded document compiled. When a schema is refused for a keyword its dialect does not allow,
 * each such keyword is dropped where it stands, with one warning naming it (openapi/document/refused-keywords.ts),
 * and the document compiled again: one flaw does not make the whole API unservable.
 */
function compileLoaded(loaded: LoadedDocument): CompiledContract {
  try {
    return compileOnce(loaded, [...loaded.warnings]);
  } catch (error) {
    if (!(error instanceof ContractError) || !error.message.includes(SCHEMA_REFUSED)) throw error;
    const dropped = dropRefusedKeywords(loaded.document, loaded.source);
    if (dropped.length === 0) throw error;
    return compileOnce(loaded, [...loaded.warnings, ...dropped]);
  }
}

/** How every refusal of a schema begins. */
const SCHEMA_REFUSED = 'the schema cannot be compiled';

function compileOnce({ document, source, notes, declaredVersion }: LoadedDocument, warnings: string[]): CompiledContract {
  const paths = document.paths as Record<string, unknown>;
  const refused = refusedPatterns(document);
  if (refused.length > 0) {
    const list = refused.map((r) => `${r.pointer} ${JSON.stringify(r.pattern)}: ${r.reason}`).join('; ');
    throw new ContractError(
      `${source}: ${refused.length === 1 ? 'a pattern uses' : `${refused.length} patterns use`} what a linear-time regular expression engine cannot run (lookaround or backreferences), which would let one request freeze the mock: ${list}. Rewrite it without them.`,
    );
  }
  const compiler = new SchemaCompiler(document, source);
  const securitySchemes = readSecuritySchemes(document, source, warnings);
  const globalSecurity = readSecurity(document.security, source, '/security', securitySchemes, warnings);
  const operations = new Map<string, ContractOperation>();
  // A link's operationRef names an operation by where it stands, which may come later in the document.
  const operationAt = (path: string, method: string): string | undefined => {
    const item = Object.hasOwn(paths, path) ? resolveRef(paths[path], document) : undefined;
    const operation = isObject(item) && (HTTP_METHODS as readonly string[]).includes(method) ? item[method] : undefined;
    return isObject(operation) && typeof operation.operationId === 'string' ? operation.operationId : undefined;
  };
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = compiler.resolve(rawItem, jsonPointer('paths', path));
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters.map((value, i) => ({ value, pointer: jsonPointer('paths', path, 'parameters', i) })) : [];
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const where = jsonPointer('paths', path, method);
      const operationId = raw.operationId as string;
      const own = Array.isArray(raw.parameters) ? raw.parameters.map((value, i) => ({ value, pointer: `${where}/parameters/${i}` })) : [];
      operations.set(operationId, {
        operationId,
        method,
        path,
        // The operation's own first: they win over the path item's (OpenAPI 3.1, 4.8.9.1).
        parameters: readParameters([...own, ...shared], compiler),
        security: raw.security === undefined ? globalSecurity : readSecurity(raw.security, source, `${where}/security`, securitySchemes, warnings),
        requestBody: readRequestBody(raw.requestBody, compiler, `${where}/requestBody`),
        ...readResponses(raw.responses, compiler, `${where}/responses`, operationAt),
      });
    }
  }
  const info = isObject(document.info) ? document.info : {};
  return {
    source,
    document,
    declaredVersion,
    notes,
    warnings,
    title: String(info.title ?? ''),
    version: String(info.version ?? ''),
    description: typeof info.description === 'string' ? info.description : undefined,
    basePaths: serverBasePaths(document),
    operations,
    securitySchemes,
    componentValidator: (name) => compiler.compile({ $ref: `#/components/schemas/${name}` }, jsonPointer('components', 'schemas', name)),
  };
}

/**
 * Compiles the document's schemas with one Ajv. The components (and any other local schema a ref
 * names) are rewritten into `$defs` and registered with the Ajv once, as a schema of their own per
 * direction: each is checked against the meta-schema and compiled once, and every operation's
 * schema refers into it, instead of carrying (and re-checking, recompiling) all of them.
 * Other local refs (responses, parameters, request bodies, examples) are resolved by `resolve`.
 */
class SchemaCompiler {
  // Refs call the components' one compiled function rather than inlining a copy into every operation's
  // (CONTRACT_AJV_OPTIONS). Ajv's own meta-validation is off: every schema it is given was checked by
  // #schemaProblem (the directed `$defs` only drop names from the `required` of defs checked whole).
  // Made when first needed (wording an invalid value, a schema of another dialect, a refusal): most
  // starts answer their first request without it (an Ajv costs ~5 ms of CPU to make, Node 24).
  #allErrors: ReturnType<typeof createSpecAjv> | undefined;
  /** Every `$defs` schema given to the Ajvs, in order: the all-errors one is given them when it is made. */
  readonly #defsSchemas: object[] = [];
  // What decides: stops at the first error, so judging costs time linear in the value whatever the
  // schema's shape; #ajv only words a small invalid value (openapi/schema/bounded-validation.ts).
  readonly #firstErrorAjv = createSpecAjv({ ...CONTRACT_AJV_OPTIONS, allErrors: false, validateSchema: false });
  readonly #defs: Record<string, unknown>;
  /** The registered `$defs` schema per direction ('' when undirected), and how many defs it holds. */
  readonly #registered = new Map<Direction | '', { size: number; id: string }>();
  #checkedSize = -1;
  /** Each schema's declared properties, found once: a spec's Error or Member is the answer of many operations. */
  readonly #declared = new Map<object, ReadonlyMap<string, Schema>>();

  constructor(
    readonly document: Record<string, unknown>,
    private readonly source: string,
  ) {
    const components = isObject(document.components) ? document.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    this.#defs = {};
    for (const [name, schema] of Object.entries(schemas)) this.#defs[name] = this.#prepare(schema, name);
    // A broken component is refused at load, with its pointer, whether or not an operation uses it;
    // the Ajvs are given the defs when a first validator is compiled (Ajv walks every def it is given).
    this.#checkDefs();
    this.#checkedSize = Object.keys(this.#defs).length;
  }

  /**
   * A validator of `schema`. For a request body a `readOnly` property is never required, for an
   * answer a `writeOnly` one (OpenAPI 3.1, 4.8.24: required applies only where the property may appear).
   */
  compile(schema: Schema, where: string, direction?: Direction): ValidateFunction {
    try {
      const rewritten = this.#prepare(schema);
      const directed = direction === undefined ? rewritten : unrequired(rewritten, FLAG[direction]);
      // Rewriting may add defs (bundled schemas): they are registered (and checked) before use. A
      // schema that refers to nothing (most parameters') is compiled alone: giving both Ajvs every
      // def (each walked) waited for the first request with a query parameter, before its answer.
      const own = refersToAnything(rewritten) ? retarget(directed, this.#defsId(direction ?? '')) : directed;
      const problem = this.#schemaProblem(own);
      if (problem !== undefined) throw ContractError.at(this.source, where, `${SCHEMA_REFUSED}: schema is invalid: ${problem}`);
      const firstError = this.#firstErrorAjv.compile(own as Schema);
      return boundedValidator(firstError, () => this.#ajv.compile(own as Schema));
    } catch (error) {
      if (error instanceof ContractError) throw error;
      throw ContractError.at(this.source, where, `${SCHEMA_REFUSED}: ${(error as Error).message}`);
    }
  }

  get #ajv(): ReturnType<typeof createSpecAjv> {
    if (this.#allErrors === undefined) {
      this.#allErrors = createSpecAjv({ ...CONTRACT_AJV_OPTIONS, validateSchema: false });
      for (const schema of this.#defsSchemas) this.#allErrors.addSchema(schema);
    }
    return this.#allErrors;
  }

  /** The id of the registered `$defs` for `direction`, registering them again when rewriting added defs. */
  #defsId(direction: Direction | ''): string {
    const size = Object.keys(this.#defs).length;
    const known = this.#registered.get(direction);
    if (known?.size === size) return known.id;
    const id = `urn:contract-defs:${direction || 'any'}:${size}`;
    const defs = direction === '' ? this.#defs : mapValues(this.#defs, (def) => unrequired(def, FLAG[direction]));
    if (size !== this.#checkedSize) this.#checkDefs();
    this.#checkedSize = size;
    const schema = { $id: id, $defs: defs };
    this.#defsSchemas.push(schema);
    this.#allErrors?.addSchema(schema);
    this.#firstErrorAjv.addSchema(schema);
    this.#registered.set(direction, { size, id });
    return id;
  }

  /**
   * What Ajv's `validateSchema` finds wrong with `schema` (its errors' text), or undefined when it
   * follows its meta-schema. The default meta-schema's validator is precompiled
   * (openapi/schema/meta-schema.gen.ts) so that a start does not compile it; a schema naming another
   * `$schema` is left to Ajv, which refuses one it does not know.
   */
  #schemaProblem(schema: unknown): string | undefined {
    // Ajv's own lookup ignores a trailing `#` (or `#/`) of the id.
    const dialect = isObject(schema) ? schema.$schema : undefined;
    if (dialect !== undefined && (typeof dialect !== 'string' || dialect.replace(/#\/?$/, '') !== META_SCHEMA_ID)) {
      return this.#ajv.validateSchema(schema as Schema) === true ? undefined : this.#ajv.errorsText(this.#ajv.errors);
    }
    return validateMetaSchema(schema) ? undefined : this.#ajv.errorsText(validateMetaSchema.errors);
  }

  /** Throws, at `where`, when `schema` does not follow the JSON Schema meta-schema or holds what Ajv refuses to compile. */
  #checkSchema(schema: Schema, where: string): void {
    const rewritten = this.#prepare(schema);
    const problem = this.#schemaProblem(rewritten);
    if (problem !== undefined) throw ContractError.at(this.source, where, `${SCHEMA_REFUSED}: schema is invalid: ${problem}`);
    const refusal = ajvRefusal(rewritten, { $defs: this.#defs });
    if (refusal) throw ContractError.at(this.source, `${where}${refusal.pointer}`, `${SCHEMA_REFUSED}: ${this.#documentRefs(refusal.reason)}`);
  }

  /** Throws, at the schema's own pointer, when a def does not follow the JSON Schema meta-schema. */
  #checkDefs(): void {
    if (validateMetaSchema({ $defs: this.#defs })) {
      const refusal = ajvRefusal({ $defs: this.#defs }, { $defs: this.#defs });
      if (refusal) throw ContractError.at(this.source, this.#defPointer(refusal.pointer), `${SCHEMA_REFUSED}: ${this.#documentRefs(refusal.reason)}`);
      const round = endlessRound({ $defs: this.#defs }, defPointers(this.#defs));
      if (round) {
        const through = [round.pointer, ...round.through].map((pointer) => this.#defPointer(pointer)).join(' → ');
        throw ContractError.at(
          this.source,
          this.#defPointer(round.pointer),
          `the schema comes back to itself (${through}) without descending into a property or an item: judging any value by it would never end`,
        );
      }
      return;
    }
    const whole = this.#ajv.errorsText(validateMetaSchema.errors);
    const first = validateMetaSchema.errors?.[0];
    const name = /^\/\$defs\/([^/]*)/.exec(first?.instancePath ?? '')?.[1] ?? '';
    const unescaped = unescapePointerToken(name);
    const where = unescaped.startsWith('@') ? unescaped.slice(1) : jsonPointer('components', 'schemas', unescaped);
    throw ContractError.at(this.source, where, `${SCHEMA_REFUSED}: schema is invalid: ${this.#schemaProblem(this.#defs[unescaped]) ?? whole}`);
  }

  /** `text` with each ref into the registered `$defs` written as the document's ref. */
  #documentRefs(text: string): string {
    return text.replace(/#(\/\$defs\/\S*)/g, (_ref, pointer: string) => `#${this.#defPointer(pointer)}`);
  }

  /** A pointer into the registered `$defs` (`/$defs/Name/…`) as the document's own (`/components/schemas/Name/…`, or where a bundled schema sits). */
  #defPointer(pointer: string): string {
    const [, name = '', rest = ''] = /^\/\$defs\/([^/]*)(.*)$/.exec(pointer) ?? [];
    const unescaped = unescapePointerToken(name);
    return `${unescaped.startsWith('@') ? unescaped.slice(1) : jsonPointer('components', 'schemas', unescaped)}${rest}`;
  }

  /** A schema of the document as Ajv is given it: discriminated unions as conditions (openapi/schema/discriminator.ts), refs into the `$defs`. */
  #prepare(schema: unknown, component?: string): any {
    return this.#rewrite(discriminatorsAsConditions(schema, this.document, component));
  }

  /**
   * A schema with its refs pointed into the registered `$defs`:
   * `#/components/schemas/X…` → `#/$defs/X…`; any other local pointer (a bundled file's schema
   * sits where it was first referred to, e.g. under `paths`) gets a def of its own, added once.
   */
  #rewrite(schema: unknown): any {
    if (!isObject(schema)) return schema;
    const ref = schema.$ref;
    const target = typeof ref === 'string' ? this.#defRef(ref) : ref;
    const out = mapSubschemas(schema, (inner) => this.#rewrite(inner));
    return target === ref ? out : { ...out, $ref: target };
  }

  #defRef(ref: string): string {
    if (ref.startsWith('#/components/schemas/')) return ref.replace('#/components/schemas/', '#/$defs/');
    if (!ref.startsWith('#/')) return ref;
    const name = `@${ref.slice(1)}`;
    if (!Object.hasOwn(this.#defs, name)) {
      this.#defs[name] = true; // placeholder while rewriting: a cycle refers back to this def
      this.#defs[name] = this.#prepare(pointerTarget(this.document, ref) ?? {});
    }
    return `#/$defs/${escapePointerToken(name)}`;
  }

  /**
   * A `validate` property compiled on first use. The mock never validates responses, and
   * compiling is most of its start-up; the suite and the proxy compile them when they first judge
   * an answer.
   */
  compileLazily(target: { validate: ValidateFunction | undefined }, schema: Schema | undefined, where: string, direction?: Direction): void {
    if (!schema) return;
    // What a request is judged by is checked against the meta-schema now (a fraction of compiling
    // it), so a broken one is still refused at load with its pointer; patterns are checked apart.
    if (direction !== 'response') this.#checkSchema(schema, where);
    let compiled: ValidateFunction | undefined;
    Object.defineProperty(target, 'validate', { enumerable: true, get: () => (compiled ??= this.compile(schema, where, direction)) });
  }

  /** The exact-reading plan of a body of `schema` that declares `properties` (see ContractMediaType.exactPlan). */
  exactPlan(schema: Schema | undefined, properties: Iterable<string>): ExactPlan | undefined {
    return schema ? exactPlanDeclaring(exactPlanOf(schema, this.document), properties) : READ_EVERY_NUMBER;
  }

  /** Follows local `$ref`s (`#/components/…`) of non-schema objects to what they name. */
  resolve(value: unknown, where: string): unknown {
    const problem = refProblem(value, this.document);
    if (problem) throw ContractError.at(this.source, where, problem);
    return resolveRef(value, this.document);
  }

  /** The properties a schema requires at its top level, through refs and allOf (not union branches: either may hold). */
  required(schema: Schema | undefined): string[] {
    return [...flattenObject(schema, this.document).required];
  }

  /** The properties a schema declares, through refs, allOf and union branches, with their schemas. */
  properties(schema: Schema | undefined): ReadonlyMap<string, Schema> {
    const node = resolveRef(schema, this.document);
    if (!isObject(node)) return declaredProperties(node, this.document);
    let found = this.#declared.get(node);
    if (found === undefined) this.#declared.set(node, (found = declaredProperties(node, this.document)));
    return found;
  }
}

function readSecuritySchemes(document: Record<string, unknown>, source: string, warnings: string[]): Map<string, SecurityScheme> {
  const components = isObject(document.components) ? document.components : {};
  const schemes = new Map<string, SecurityScheme>();
  for (const [name, raw] of Object.entries(isObject(components.securitySchemes) ? components.securitySchemes : {})) {
    if (!isObject(raw)) continue;
    const type = String(raw.type ?? '');
    if (type === 'http' && String(raw.scheme ?? '').toLowerCase() === 'bearer') schemes.set(name, { name, kind: 'http-bearer' });
    else if (type === 'http' && String(raw.scheme ?? '').toLowerCase() === 'basic') schemes.set(name, { name, kind: 'http-basic' });
    else if (type === 'apiKey') {
      const where = raw.in;
      if ((where !== 'header' && where !== 'query' && where !== 'cookie') || typeof raw.name !== 'string' || raw.name === '') {
        // Which request part carries the key is unknown: no request is refused for it.
        warnings.push(`${source}#${jsonPointer('components', 'securitySchemes', name)}: the apiKey scheme ${name} needs 'in' (header, query or cookie) and a 'name'; not checked`);
        schemes.set(name, { name, kind: 'unsupported', type: 'apiKey without in and name' });
        continue;
      }
      schemes.set(name, { name, kind: 'api-key', in: where, parameter: where === 'header' ? raw.name.toLowerCase() : raw.name });
    } else if (type === 'oauth2' || type === 'openIdConnect') schemes.set(name, { name, kind: 'oauth-bearer', type });
    else schemes.set(name, { name, kind: 'unsupported', type: type === 'http' ? `http ${String(raw.scheme)}` : type });
  }
  return schemes;
}

/**
 * An operation's (or the document's) security requirements. A scheme `components.securitySchemes`
 * does not declare is a flaw, not a reason to serve nothing: it is taken as a scheme of unknown kind,
 * which any request satisfies (the mock cannot tell what credential it means), with one warning.
 */
function readSecurity(raw: unknown, source: string, where: string, schemes: Map<string, SecurityScheme>, warnings: string[]): SecurityRequirement[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw ContractError.at(source, where, 'security must be a list of requirements');
  return raw.map((requirement, index) => {
    if (!isObject(requirement)) throw ContractError.at(source, `${where}/${index}`, 'each security requirement must be a mapping');
    const names = Object.keys(requirement);
    for (const name of names) {
      if (schemes.has(name)) continue;
      warnings.push(`${source}#${where}/${index}: security names ${name}, which components.securitySchemes does not declare; not checked: no request is refused for it`);
      schemes.set(name, { name, kind: 'unsupported', type: 'undeclared' });
    }
    return names;
  });
}

function readParameters(raw: readonly { value: unknown; pointer: string }[], compiler: SchemaCompiler, direction?: Direction): ContractParameter[] {
  const byKey = new Map<string, ContractParameter>();
  for (const { value, pointer } of raw) {
    const parameter = compiler.resolve(value, pointer);
    if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
    const location = parameter.in;
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') continue;
    const name = location === 'header' ? parameter.name.toLowerCase() : parameter.name;
    // OpenAPI 3.1, 4.8.12.1: a header parameter named Accept, Content-Type or Authorization SHALL be
    // ignored (the media types and the security schemes say those); judging it would refuse `Accept: */*`.
    if (direction === undefined && location === 'header' && IGNORED_REQUEST_HEADERS.has(name)) continue;
    const key = `${location}:${name}`;
    if (byKey.has(key)) continue;
    // `content` instead of `schema`: the value is a document of that media type (JSON, in practice).
    const content = isObject(parameter.content) ? Object.entries(parameter.content)[0] : undefined;
    const contentSchema = content && isObject(content[1]) && isObject(content[1].schema) ? content[1].schema : undefined;
    const schema = isObject(parameter.schema) ? parameter.schema : contentSchema;
    const style = content ? 'content' : typeof parameter.style === 'string' ? parameter.style : DEFAULT_STYLE[location];
    const compiled = withSchemaShapes<Omit<ContractParameter, 'inlined'>>(
      {
        name,
        in: location,
        ...(typeof parameter.description === 'string' ? { description: parameter.description } : {}),
        ...parameterExample(parameter),
        required: location === 'path' || parameter.required === true,
        schema,
        style: style as ParameterStyle,
        // OpenAPI 3.1, 4.8.12.4: explode defaults to true for form, false for every other style.
        explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
        mediaType: content?.[0],
        validate: undefined,
        read: () => undefined,
      },
      schema,
      compiler.document,
    );
    byKey.set(key, compiled);
    compiler.compileLazily(compiled, schema, `${pointer}/${content ? `content/${escapePointerToken(content[0])}/schema` : 'schema'}`, direction);
  }
  const parameters = [...byKey.values()];
  const claimed = new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const parameter of parameters) parameter.read = parameterReader(parameter, compiler.document, claimed);
  return parameters;
}

/** The parameter's `example`, else the value of its first `examples` entry (OpenAPI 3.1, 4.8.12.1), else its schema's `example`. */
function parameterExample(parameter: Record<string, unknown>): { example?: unknown } {
  if ('example' in parameter && parameter.example !== undefined) return { example: parameter.example };
  const first = isObject(parameter.examples) ? Object.values(parameter.examples)[0] : undefined;
  if (isObject(first) && 'value' in first) return { example: first.value };
  if (isObject(parameter.schema) && 'example' in parameter.schema && parameter.schema.example !== undefined) return { example: parameter.schema.example };
  return {};
}

const IGNORED_REQUEST_HEADERS: ReadonlySet<string> = new Set(['accept', 'content-type', 'authorization']);

const DEFAULT_STYLE = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' } as const;

function readRequestBody(raw: unknown, compiler: SchemaCompiler, where: string): ContractOperation['requestBody'] {
  if (raw === undefined) return undefined;
  const body = compiler.resolve(raw, where);
  if (!isObject(body)) return undefined;
  return { required: body.required === true, content: readContent(body.content, compiler, `${where}/content`, 'request') };
}

function readResponses(
  raw: unknown,
  compiler: SchemaCompiler,
  where: string,
  operationAt: (path: string, method: string) => string | undefined,
): Pick<ContractOperation, 'responses' | 'ranges' | 'declaredStatuses' | 'successStatus'> {
  const responses = new Map<number | 'default', ContractResponse>();
  const ranges = new Map<string, ContractResponse>();
  for (const [code, entry] of Object.entries(isObject(raw) ? raw : {})) {
    const status = code === 'default' ? 'default' : /^[1-5]\d\d$/.test(code) ? Number(code) : undefined;
    // 2XX-style ranges say nothing a mock can answer exactly; they are not statuses, but they give a shape.
    const range = /^[1-5]xx$/i.test(code) ? code.toUpperCase() : undefined;
    if (status === undefined && range === undefined) continue;
    const response = compiler.resolve(entry, `${where}/${code}`);
    if (!isObject(response)) continue;
    const read: ContractResponse = {
      status: status ?? 'default',
      description: String(response.description ?? ''),
      content: readContent(response.content, compiler, `${where}/${code}/content`, 'response'),
      headers: Object.keys(isObject(response.headers) ? response.headers : {}).map((name) => name.toLowerCase()),
      headerParameters: headerParametersOf(response.headers, compiler, `${where}/${code}/headers`),
      links: readLinks(response.links, compiler.document, operationAt),
    };
    if (range !== undefined) ranges.set(range, read);
    else responses.set(status as number | 'default', read);
  }
  const declaredStatuses = [...responses.keys()].filter((status): status is number => status !== 'default').sort((a, b) => a - b);
  return { responses, ranges, declaredStatuses, successStatus: declaredStatuses.find((status) => status >= 200 && status < 300) };
}

function headerParametersOf(raw: unknown, compiler: SchemaCompiler, where: string): ContractParameter[] {
  const headers: { value: unknown; pointer: string }[] = [];
  for (const [name, entry] of Object.entries(isObject(raw) ? raw : {})) {
    if (name.toLowerCase() === 'content-type') continue;
    const pointer = `${where}/${escapePointerToken(name)}`;
    const header = compiler.resolve(entry, pointer);
    if (!isObject(header)) continue;
    const resolved = (schema: unknown, at: string): Schema | undefined => {
      const target = isObject(schema) ? compiler.resolve(schema, at) : undefined;
      return isObject(target) ? target : undefined;
    };
    const schema = resolved(header.schema, `${pointer}/schema`);
    // A `content` header's schema is its media type's (JSON, in practice).
    const [mediaType, media] = isObject(header.content) ? (Object.entries(header.content)[0] ?? []) : [];
    const contentSchema = mediaType !== undefined && isObject(media) ? resolved(media.schema, `${pointer}/content/${escapePointerToken(mediaType)}/schema`) : undefined;
    const content = contentSchema && mediaType !== undefined ? { content: { [mediaType]: { ...(media as Schema), schema: contentSchema } } } : {};
    headers.push({ value: { ...header, ...(schema ? { schema } : {}), ...content, name, in: 'header' }, pointer });
  }
  return readParameters(headers, compiler, 'response');
}

function readContent(raw: unknown, compiler: SchemaCompiler, where: string, direction: 'request' | 'response'): Map<string, ContractMediaType> {
  const content = new Map<string, ContractMediaType>();
  for (const [mediaType, entry] of Object.entries(isObject(raw) ? raw : {})) {
    if (!isObject(entry)) continue;
    const schema = isObject(entry.schema) ? entry.schema : undefined;
    const properties = compiler.properties(schema);
    const at = `${where}/${escapePointerToken(mediaType)}`;
    const resolved = schema ? compiler.resolve(schema, `${at}/schema`) : undefined;
    const type = isObject(resolved) && typeof resolved.type === 'string' ? resolved.type : undefined;
    const examples: ContractExample[] = [];
    if (entry.example !== undefined) examples.push({ name: 'example', value: entry.example });
    for (const [name, example] of Object.entries(isObject(entry.examples) ? entry.examples : {})) {
      const resolved = compiler.resolve(example, `${at}/examples/${escapePointerToken(name)}`);
      if (isObject(resolved) && 'value' in resolved) examples.push({ name, value: resolved.value });
    }
    const media = withSchemaShapes(
      {
        mediaType: mediaType.toLowerCase(),
        schema,
        validate: undefined as ValidateFunction | undefined,
        properties: [...properties.keys()],
        propertySchemas: properties,
        required: compiler.required(schema),
        type,
        itemProperties: type === 'array' && isObject(resolved) && isObject(resolved.items) ? new Set(compiler.properties(resolved.items).keys()) : undefined,
        propertySet: new Set(properties.keys()),
        maxItems: type === 'array' && isObject(resolved) && typeof resolved.maxItems === 'number' ? resolved.maxItems : undefined,
        arrayProperties: arrayPropertiesOf(properties, compiler),
        examples,
        exactPlan: undefined as ExactPlan | undefined,
      },
      schema,
      compiler.document,
    );
    // Worked out when a body of this type is first read: most of a large document's bodies are
    // never read by a run, and planning every one was a fifth of compiling lago (docs/benchmarks.md).
    let plan: { value: ExactPlan | undefined } | undefined;
    Object.defineProperty(media, 'exactPlan', { enumerable: true, get: () => (plan ??= { value: compiler.exactPlan(schema, properties.keys()) }).value });
    compiler.compileLazily(media, schema, `${at}/schema`, direction);
    content.set(media.mediaType, media);
  }
  return content;
}

function arrayPropertiesOf(properties: ReadonlyMap<string, Schema>, compiler: SchemaCompiler): Map<string, ReadonlySet<string>> {
  const arrays = new Map<string, ReadonlySet<string>>();
  for (const [name, schema] of properties) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('array') && isObject(schema.items)) arrays.set(name, new Set(compiler.properties(schema.items).keys()));
  }
  return arrays;
}

type Direction = 'request' | 'response';
const FLAG = { request: 'readOnly', response: 'writeOnly' } as const;

/** Whether `schema` holds a `$ref` or `$dynamicRef` anywhere (in data too: then it is compiled with the defs, as always). */
function refersToAnything(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && ('$ref' in node || '$dynamicRef' in node)) return true;
    for (const inner of Array.isArray(node) ? node : Object.values(node)) pending.push(inner);
  }
  return false;
}

/** An operation's rewritten schema with its `#/$defs/…` refs pointed into the registered defs `id`. */
function retarget(schema: unknown, id: string): unknown {
  if (!isObject(schema)) return schema;
  const out = mapSubschemas(schema, (inner) => retarget(inner, id));
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? { ...out, $ref: `${id}${ref}` } : out;
}

/** `schema` with every property flagged `flag` (readOnly, writeOnly) left out of the `required` lists beside it. */
function unrequired(schema: unknown, flag: string): unknown {
  if (!isObject(schema)) return schema;
  const out = mapSubschemas(schema, (inner) => unrequired(inner, flag));
  const { required, properties } = schema;
  if (!Array.isArray(required) || !isObject(properties)) return out;
  const kept = required.filter((name) => !(isObject(properties[name as string]) && (properties[name as string] as Record<string, unknown>)[flag] === true));
  return kept.length === required.length ? out : { ...out, required: kept };
}

function mapValues(map: Record<string, unknown>, rewrite: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, rewrite(value)]));
}
