/**
 * Reading a user's OpenAPI document into the one form every tool compiles from: OpenAPI 3.1,
 * every file it refers to bundled in, every operation with an operationId.
 *
 * - YAML and JSON are read as `yaml` (eemeli/yaml, the project's YAML reader of record) reads them,
 *   sibling files too: it reads the YAML 1.2 real projects publish (a multi-line flow collection
 *   closed at its key's indentation, as Apache Iceberg's REST catalog and ownCloud's libre-graph-api
 *   documents have it), which js-yaml refused ("deficient indentation"). JSON text is read by
 *   JSON.parse, and YAML that js-yaml reads to the same value by js-yaml: several times faster on
 *   the large documents (./yaml-text.ts says when).
 * - `$ref`s to files beside the document are bundled by @apidevtools/json-schema-ref-parser
 *   (already what openapi-backend resolves with; it takes our parser as a plugin and can leave
 *   chosen refs alone). Remote (http) refs are refused: the tools never reach the network. A ref
 *   inside an `x-` extension to something that is not YAML or JSON (a Markdown guide) or remote
 *   is left as it is and said in `notes`: extensions are for other tools.
 * - Swagger 2.0 and OpenAPI 3.0.x are upgraded to 3.1 by @scalar/openapi-upgrader (small, typed,
 *   two steps we can call apart, kept up by the Scalar project); the bundled document is
 *   upgraded, so schemas from sibling files are upgraded too. What it leaves of 3.0's `nullable`
 *   (in any document) becomes a null alternative: see openapi/document/nullable.ts.
 * - An operation without operationId gets one: see `generatedOperationId`.
 *
 * Every failure is a ContractError naming the document, the JSON pointer and the reason.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { upgradeFromTwoToThree } from '@scalar/openapi-upgrader/2.0-to-3.0';
import { upgradeFromThreeToThreeOne } from '@scalar/openapi-upgrader/3.0-to-3.1';
import { nullableAsNullAlternative } from './nullable.js';
import { restoreNames, setAsideNames } from './upgrade-names.js';
import { producesOnEveryOperation, producesOnSharedResponses } from './swagger-produces.js';
import { formBodiesRequired, requiredForms } from './swagger-form-bodies.js';
import { isObject, jsonPointer, pointerTokens } from '../schema/resolve.js';
import { readConfined, refRoot } from './ref-files.js';
import { applyOverlay } from './overlay.js';
import { parseYamlText } from './yaml-text.js';
import type { ParsedTextCache } from './parsed-text-cache.js';

/** Why a document cannot be served or tested; the message names the document, the place (a JSON pointer) and the reason. */
export class ContractError extends Error {
  override name = 'ContractError';

  /** `document#pointer: reason` (the pointer left out when the problem is the whole document). */
  static at(document: string, pointer: string, reason: string): ContractError {
    return new ContractError(`${document}${pointer ? `#${pointer}` : ''}: ${reason}`);
  }
}

export interface LoadedDocument {
  /** The document's absolute path. */
  source: string;
  /** OpenAPI 3.1, bundled, every operation with an operationId. */
  document: Record<string, unknown>;
  /** The version the file declared (`3.0.3`, `2.0` …). */
  declaredVersion: string;
  /** What loading changed or left alone, one sentence each (for the log). */
  notes: string[];
  /**
   * Flaws loaded anyway, one line each naming the pointer: the document breaks its version's
   * rules there, but the API can still be served (printed at start, shown at /__mock/spec).
   */
  warnings: string[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Reads, bundles, upgrades and completes the document at `path`. Throws ContractError. `parsed` keeps the document's value between starts (./parsed-text-cache.ts). */
export async function loadDocument(path: string, overlays: readonly string[] = [], parsed?: ParsedTextCache): Promise<LoadedDocument> {
  const source = resolvePath(path);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new ContractError(`Cannot read the OpenAPI document ${source}: ${(error as Error).message}`);
  }
  const raw = parseDocumentText(text, source, parsed);
  // Overlays apply to the document as its author wrote it (their targets name its own paths), before anything is bundled or upgraded.
  const overlaid: string[] = [];
  for (const file of overlays) {
    const overlay = resolvePath(file);
    let overlayText: string;
    try {
      overlayText = await readFile(overlay, 'utf8');
    } catch (error) {
      throw new ContractError(`Cannot read the overlay ${overlay}: ${(error as Error).message}`);
    }
    overlaid.push(...applyOverlay(raw, parseDocumentText(overlayText, overlay), overlay));
  }
  const refs = externalRefs(raw, source);
  const bundled = refs.followed.length ? await bundle(raw, source, refs) : raw;
  const loaded = completeOwned(unfollowed(bundled, refs.leftAlone), source, refs.notes, true);
  loaded.warnings.unshift(...overlaid);
  return loaded;
}

/**
 * The same for a document that refers to no other file (the bundled Plant Store spec, tests, the
 * contract suite until it loads asynchronously): synchronous. One that does is refused, saying so.
 */
export function loadDocumentSync(path: string): LoadedDocument {
  const source = resolvePath(path);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (error) {
    throw new ContractError(`Cannot read the OpenAPI document ${source}: ${(error as Error).message}`);
  }
  const raw = parseDocumentText(text, source);
  const refs = externalRefs(raw, source);
  const first = refs.followed[0];
  if (first)
    throw ContractError.at(
      source,
      first.pointer,
      `refers to ${first.ref}, another file; this tool reads single-file documents (the mock and the Prism mock bundle such refs themselves: for the others, bundle it first, e.g. npx @redocly/cli bundle)`,
    );
  return completeOwned(unfollowed(raw, refs.leftAlone), source, refs.notes, true);
}

/** A parsed document (no file refs followed) completed as `loadDocument` does, `raw` left as it is. Throws ContractError. */
export function completeDocument(raw: unknown, source: string, notes: string[] = []): LoadedDocument {
  return completeOwned(raw, source, notes, false);
}

/**
 * The same; `owned`: `raw` was read here and nobody else holds it, so it is upgraded where it
 * stands rather than copied first (a copy of a large document, alive beside it while it is upgraded).
 */
function completeOwned(raw: unknown, source: string, notes: string[], owned: boolean): LoadedDocument {
  const { document, declaredVersion } = upgraded(raw, source, notes, owned);
  const warnings: string[] = [];
  nameOperations(document, source, declaredVersion, notes, warnings);
  return { source, document, declaredVersion, notes, warnings };
}

/** YAML or JSON text as a value (the one `parsed` keeps for it, when it keeps one); a ContractError naming the line for anything else. */
export function parseDocumentText(text: string, source: string, parsed?: ParsedTextCache): unknown {
  const kept = parsed?.get(text);
  if (kept) return kept.value;
  let value: unknown;
  try {
    value = parseYamlText(text);
  } catch (error) {
    throw ContractError.at(source, '', `is not valid YAML or JSON: ${(error as Error).message}`);
  }
  parsed?.set(text, value);
  return value;
}

interface ExternalRef {
  /** Where the object holding the `$ref` is. */
  pointer: string;
  ref: string;
  /** Inside an `x-` extension: bundled where it is, never made a component. */
  inExtension: boolean;
}

interface ExternalRefs {
  /** Refs to files beside the document: bundled. */
  followed: ExternalRef[];
  /** Pointers of the refs left alone (in `x-` extensions: remote, or not YAML/JSON). */
  leftAlone: Set<string>;
  notes: string[];
}

const YAML_OR_JSON_FILE = /\.(ya?ml|json)$/i;
const REMOTE = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** Deepest nesting walked when looking for refs: a hostile document cannot exhaust the stack. */
const MAX_WALK_DEPTH = 256;

/** Every `$ref` that is not a local pointer, sorted into followed and left alone; a remote one outside extensions is refused. */
function externalRefs(document: unknown, source: string): ExternalRefs {
  const found: ExternalRefs = { followed: [], leftAlone: new Set(), notes: [] };
  const walk = (value: unknown, tokens: string[], inExtension: boolean): void => {
    if (tokens.length > MAX_WALK_DEPTH) throw ContractError.at(source, jsonPointer(...tokens), `nests more than ${MAX_WALK_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...tokens, String(index)], inExtension));
      return;
    }
    if (!isObject(value)) return;
    const ref = value.$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      const pointer = jsonPointer(...tokens);
      const file = ref.split('#')[0] ?? '';
      if (inExtension && (REMOTE.test(ref) || !YAML_OR_JSON_FILE.test(file))) {
        found.leftAlone.add(pointer);
        found.notes.push(`${pointer} refers to ${ref}, which is not a YAML or JSON document beside it: kept as ${NOT_FOLLOWED}, not followed (extensions are for other tools).`);
        return;
      }
      if (REMOTE.test(ref)) {
        throw ContractError.at(
          source,
          pointer,
          `refers to ${ref}; remote references are not fetched (the tools never reach the network): save the file beside the document and refer to it by a relative path`,
        );
      }
      found.followed.push({ pointer, ref, inExtension });
    }
    const parent = tokens[tokens.length - 1];
    for (const [key, inner] of Object.entries(value)) {
      // `x-` keys are extensions, except where they name properties of a schema.
      const extension = inExtension || (key.startsWith('x-') && parent !== 'properties' && parent !== 'patternProperties');
      walk(inner, [...tokens, key], extension);
    }
  };
  walk(document, [], false);
  return found;
}

/**
 * The document with the files it refers to bundled in (refs become local pointers). Each
 * component-like thing the root document refers to in another file is first given a place under
 * `components` (named after the ref's last token), so the bundler puts it there — where the
 * tools look for components — rather than at its first use under `paths`.
 */
async function bundle(raw: unknown, source: string, refs: ExternalRefs): Promise<unknown> {
  const document = structuredClone(raw) as Record<string, unknown>;
  hoistExternalRefs(document, refs.followed);
  const skip = (path: string): boolean => refs.leftAlone.has(path.startsWith('#') ? path.slice(1) : path);
  // Imported only for a document that refers to other files: most never do, and it is the costliest import of loading.
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const root = refRoot(source);
  try {
    return await $RefParser.bundle(
      source,
      document as never,
      {
        parse: {
          yaml: { order: 1, canParse: true, parse: (file: { data: Buffer | string; url: string }) => parseDocumentText(file.data.toString(), file.url) as never },
          json: false,
          text: false,
          binary: false,
        },
        // Only files inside the spec's root, bounded (./ref-files.ts); never the network.
        resolve: { http: false, file: { order: 1, canRead: true, read: (file: { url: string }) => readConfined(file.url, root) } },
        resolveExcludedPathMatcher: skip,
        bundle: { excludedPathMatcher: skip },
      } as never,
    );
  } catch (error) {
    // The library names the file and the pointer it could not follow; we add where the document refers to it.
    const message = (error as Error).message;
    const culprit = refs.followed.find(({ ref }) => message.includes(ref.split('#')[0]?.replace(/^\.\//, '') ?? ref)) ?? refs.followed[0];
    throw ContractError.at(source, culprit?.pointer ?? '', `cannot bundle ${culprit?.ref ?? 'a referenced file'}: ${message}`);
  }
}

/** Where under `components` a thing referred to at `tokens` belongs (OpenAPI 3.1, 4.8.7). */
function componentKind(tokens: readonly string[]): string | undefined {
  const last = tokens[tokens.length - 1];
  const parent = tokens[tokens.length - 2];
  if (tokens[0] === 'components' && tokens.length === 3) return undefined; // already a component
  if (tokens[0] === 'paths' && tokens.length === 2) return 'pathItems';
  if (last === 'requestBody') return 'requestBodies';
  if (parent === 'properties' || parent === 'patternProperties') return 'schemas';
  if (parent === 'parameters' || parent === 'responses' || parent === 'headers' || parent === 'examples' || parent === 'links' || parent === 'callbacks') {
    return parent;
  }
  return 'schemas';
}

function hoistExternalRefs(document: Record<string, unknown>, followed: readonly ExternalRef[]): void {
  const components = (document.components = isObject(document.components) ? document.components : {});
  const placed = new Map<string, string>();
  for (const { pointer, ref, inExtension } of followed) {
    if (inExtension) continue;
    const tokens = pointerTokens(pointer);
    const kind = componentKind(tokens);
    if (kind === undefined || placed.has(`${kind} ${ref}`)) continue;
    const bucket = (components[kind] = isObject(components[kind]) ? components[kind] : {});
    const [file = '', fragment = ''] = ref.split('#');
    const base = (pointerTokens(fragment).pop() || file.replace(/^.*\//, '').replace(/\.[^.]*$/, '') || 'bundled').replace(/[^A-Za-z0-9._-]/g, '_');
    let name = base;
    for (let n = 2; Object.hasOwn(bucket, name); n++) name = `${base}_${n}`;
    bucket[name] = { $ref: ref };
    placed.set(`${kind} ${ref}`, name);
  }
}

/** The key a ref that is not followed is kept under, so that no tool downstream tries to follow it. */
export const NOT_FOLLOWED = 'x-ref-not-followed';

/** The document with each ref left alone renamed to NOT_FOLLOWED (a copy when there are any). */
function unfollowed(document: unknown, pointers: ReadonlySet<string>): unknown {
  if (pointers.size === 0) return document;
  const copy = structuredClone(document);
  for (const pointer of pointers) {
    let holder: unknown = copy;
    for (const token of pointerTokens(pointer)) holder = Array.isArray(holder) ? holder[Number(token)] : isObject(holder) ? holder[token] : undefined;
    if (isObject(holder) && typeof holder.$ref === 'string') {
      holder[NOT_FOLLOWED] = holder.$ref;
      delete holder.$ref;
    }
  }
  return copy;
}

/** The document as OpenAPI 3.1: 3.1.x as it is, 3.0.x and Swagger 2.0 upgraded, anything else refused. */
function upgraded(raw: unknown, source: string, notes: string[], owned: boolean): { document: Record<string, unknown>; declaredVersion: string } {
  if (!isObject(raw)) throw ContractError.at(source, '', 'is not an OpenAPI document (expected a mapping at the top)');
  const version = typeof raw.openapi === 'string' ? raw.openapi : raw.swagger === '2.0' ? '2.0' : undefined;
  const where = raw.openapi !== undefined ? '/openapi' : '/swagger';
  if (version === undefined) {
    const said = raw.openapi ?? raw.swagger;
    throw ContractError.at(
      source,
      where,
      `says ${said === undefined ? 'no version (neither openapi nor swagger)' : JSON.stringify(said)}; the tools read OpenAPI 3.1 and 3.0 and Swagger 2.0 documents`,
    );
  }
  if (/^3\.1(\.|$)/.test(version)) return { document: withNullAlternatives(raw, notes), declaredVersion: version };
  if (version !== '2.0' && !/^3\.0(\.|$)/.test(version)) {
    throw ContractError.at(source, where, `says ${JSON.stringify(version)}; the tools read OpenAPI 3.1 and 3.0 and Swagger 2.0 documents`);
  }
  let document: Record<string, unknown>;
  try {
    const copy = owned ? raw : structuredClone(raw);
    const produces = version === '2.0' ? producesOnEveryOperation(copy) : undefined;
    const forms = version === '2.0' ? requiredForms(copy as Record<string, unknown>) : undefined;
    const three = (version === '2.0' ? upgradeFromTwoToThree(copy as never) : copy) as Record<string, unknown>;
    if (produces && isObject(three)) producesOnSharedResponses(three, produces);
    if (forms?.size && isObject(three)) formBodiesRequired(three, forms);
    const setAside = setAsideNames(three);
    document = upgradeFromThreeToThreeOne(three as never) as never;
    if (setAside && isObject(document)) restoreNames(document);
  } catch (error) {
    throw ContractError.at(source, where, `cannot be upgraded to OpenAPI 3.1: ${(error as Error).message}`);
  }
  if (!isObject(document)) throw ContractError.at(source, where, 'cannot be upgraded to OpenAPI 3.1');
  notes.push(`${version === '2.0' ? 'Swagger' : 'OpenAPI'} ${version} upgraded to OpenAPI 3.1 on load.`);
  return { document: withNullAlternatives(document, notes), declaredVersion: version };
}

/** The document with what is left of 3.0's `nullable` rewritten (openapi/document/nullable.ts), said in `notes`. */
function withNullAlternatives(document: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const rewritten = nullableAsNullAlternative(document);
  const first = rewritten[0];
  if (first !== undefined) {
    const more = rewritten.length > 1 ? ` and ${rewritten.length - 1} more` : '';
    notes.push(`\`nullable: true\` without a \`type\` read as \`anyOf: [<the schema>, {type: 'null'}]\` at ${first}${more}.`);
  }
  return document;
}

/**
 * Gives every operation without an operationId the one `generatedOperationId` makes; explicit
 * ids are kept and reserved first, so a generated one never takes an explicit one's name.
 */
function nameOperations(document: Record<string, unknown>, source: string, declaredVersion: string, notes: string[], warnings: string[]): void {
  if (!isObject(document.paths)) {
    // OpenAPI 3.1 makes paths optional (a document of webhooks or components only); earlier
    // versions require them, but a document without any still loads: it has no operation to serve.
    if (document.paths !== undefined || (!isObject(document.webhooks) && !isObject(document.components))) {
      throw ContractError.at(source, '/paths', document.paths === undefined ? 'is missing: the document declares no paths, webhooks or components' : 'must be a mapping of paths');
    }
    if (/^3\.1(\.|$)/.test(declaredVersion)) notes.push('The document declares no paths (OpenAPI 3.1 allows it): there is no operation to serve.');
    else warnings.push(`${source}#/paths: is missing (OpenAPI ${declaredVersion} requires it): loaded with no operation to serve.`);
    document.paths = {};
  }
  const taken = new Set<string>();
  const unnamed: { operation: Record<string, unknown>; method: string; path: string }[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, unknown>)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const id = operation.operationId;
      if (id === undefined || id === '') unnamed.push({ operation, method, path });
      else if (typeof id !== 'string') throw ContractError.at(source, jsonPointer('paths', path, method, 'operationId'), 'must be a string');
      else if (taken.has(id)) throw ContractError.at(source, jsonPointer('paths', path, method, 'operationId'), `${id} is used by another operation too; operationIds must be unique`);
      else taken.add(id);
    }
  }
  for (const { operation, method, path } of unnamed) {
    const base = generatedOperationId(method, path);
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    operation.operationId = id;
  }
  if (unnamed.length) notes.push(`${unnamed.length} operation(s) without operationId named by method and path (e.g. ${String(unnamed[0]?.operation.operationId)}).`);
}

/**
 * The operationId of an operation that has none: the method, then the path's words (letters and
 * digits, templates included without braces), joined by `_`:
 * `GET /pets/{petId}` → `get_pets_petId`, `POST /notes/{note-id}/pin` → `post_notes_note_id_pin`,
 * `GET /` → `get`. A name already taken gets `_2`, `_3` … in document order.
 */
export function generatedOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words].join('_');
}
