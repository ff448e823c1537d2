/**
 * The Plant Store OpenAPI document, loaded once, and the types and schemas derived from it.
 * Nothing here restates the spec: every schema is read from `plant-store.openapi.yaml`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// js-yaml rather than yaml: openapi-backend's ref parser loads it anyway, so reading the spec
// adds nothing to the mock's start-up. Its default schema is
// YAML 1.2 core, as yaml's is.
import { load as parseYaml } from 'js-yaml';
import type { components } from './plant-store.gen.js';

/** Absolute path of the spec; the one file every validator is compiled from. */
export const SPEC_PATH = fileURLToPath(
  // Compiled code runs from dist/spec/; the YAML stays in spec/.
  new URL(import.meta.url.includes('/dist/spec/') ? '../../spec/plant-store.openapi.yaml' : './plant-store.openapi.yaml', import.meta.url),
);

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
export type SpecError = components['schemas']['Error'];

export type SchemaName = keyof components['schemas'];

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<SchemaName, Record<string, unknown>> };
  [key: string]: unknown;
}

const documents = new Map<string, OpenApiDocument>();

/** The parsed document at `path` (the project's spec by default), read once. */
export function loadSpec(path: string = SPEC_PATH): OpenApiDocument {
  let document = documents.get(path);
  if (!document) {
    document = parseYaml(readFileSync(path, 'utf8')) as OpenApiDocument;
    documents.set(path, document);
  }
  return document;
}

/**
 * A component schema as a standalone JSON Schema: `$ref`s to sibling components are kept
 * resolvable by carrying the document's components along under `$defs`-style ids.
 */
export function componentSchema(name: SchemaName, document: OpenApiDocument = loadSpec()): object {
  return {
    $id: `plant-store:${name}`,
    ...rewriteRefs(document.components.schemas[name]),
    $defs: Object.fromEntries(
      Object.entries(document.components.schemas).map(([key, schema]) => [key, rewriteRefs(schema)]),
    ),
  };
}

/** The names of the properties a component schema declares (allOf parts included). */
export function declaredProperties(name: SchemaName, document: OpenApiDocument = loadSpec()): string[] {
  const names = new Set<string>();
  const visit = (schema: Record<string, unknown>): void => {
    const ref = schema.$ref;
    if (typeof ref === 'string') visit(document.components.schemas[ref.split('/').pop() as SchemaName]);
    for (const key of Object.keys((schema.properties as object | undefined) ?? {})) names.add(key);
    for (const part of (schema.allOf as Record<string, unknown>[] | undefined) ?? []) visit(part);
  };
  visit(document.components.schemas[name]);
  return [...names];
}

function rewriteRefs(value: unknown): any {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === '$ref' && typeof inner === 'string'
          ? [key, inner.replace('#/components/schemas/', '#/$defs/')]
          : [key, rewriteRefs(inner)],
      ),
    );
  }
  return value;
}
