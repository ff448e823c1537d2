/**
 * What the spec promises about createPlant's answers, read from the spec itself: the declared
 * statuses, their media types and their body schemas compiled with the project's Ajv
 * (2020-12, formats, exact int32/int64). Nothing here restates a schema.
 */
import type { ValidateFunction } from 'ajv';
import { createSpecAjv } from '../spec/ajv.js';
import { parseExactJson } from '../spec/exact-json.js';
import { componentSchema, loadSpec, type OpenApiDocument, type SchemaName } from '../spec/index.js';

export interface DeclaredResponse {
  status: number;
  mediaTypes: readonly string[];
  /** The component the body must be (`Plant`, `Error`), when the spec names one. */
  schemaName?: SchemaName;
  validate?: ValidateFunction;
}

export interface CreatePlantContract {
  path: string;
  method: string;
  responses: ReadonlyMap<number, DeclaredResponse>;
  /** Statuses the spec declares, in ascending order, for messages. */
  declared: readonly number[];
  validateNewPlant: ValidateFunction;
}

let contract: CreatePlantContract | undefined;

/** The createPlant operation's contract, read from the spec once. */
export function createPlantContract(document: OpenApiDocument = loadSpec()): CreatePlantContract {
  if (contract && document === loadSpec()) return contract;
  const found = findOperation(document, 'createPlant');
  const ajv = createSpecAjv();
  const responses = new Map<number, DeclaredResponse>();
  for (const [code, response] of Object.entries(found.operation.responses ?? {})) {
    if (!/^\d{3}$/.test(code)) continue;
    const content = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content ?? {};
    const mediaTypes = Object.keys(content);
    const ref = Object.values(content)[0]?.schema?.$ref;
    const schemaName = ref?.startsWith('#/components/schemas/') ? (ref.split('/').pop() as SchemaName) : undefined;
    responses.set(Number(code), {
      status: Number(code),
      mediaTypes,
      ...(schemaName ? { schemaName, validate: ajv.compile(componentSchema(schemaName, document)) } : {}),
    });
  }
  const built: CreatePlantContract = {
    path: found.path,
    method: found.method.toUpperCase(),
    responses,
    declared: [...responses.keys()].sort((a, b) => a - b),
    validateNewPlant: ajv.compile(componentSchema('NewPlant', document)),
  };
  if (document === loadSpec()) contract = built;
  return built;
}

function findOperation(document: OpenApiDocument, operationId: string) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((operation as { operationId?: string })?.operationId === operationId) {
        return { path, method, operation: operation as { responses?: Record<string, unknown> } };
      }
    }
  }
  throw new Error(`The spec has no operation ${operationId}; the contract suite tests POST /plants from it.`);
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; problem: string };

/** A response body parsed losslessly (an int64 keeps its real digits). */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: parseExactJson(text) };
  } catch (error) {
    return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
  }
}

/** Ajv's verdict as short phrases: `/name must be string`, `must have required property 'message'`. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  const problems = new Set<string>();
  for (const error of validate.errors ?? []) {
    const at = error.instancePath === '' ? 'the body' : error.instancePath.slice(1).replaceAll('/', '.');
    const detail =
      error.keyword === 'format'
        ? `must be ${(error.params as { format: string }).format}`
        : error.keyword === 'required'
          ? `must have the required field '${(error.params as { missingProperty: string }).missingProperty}'`
          : (error.message ?? 'is invalid');
    problems.add(`${at} ${detail}`);
  }
  return [...problems];
}
