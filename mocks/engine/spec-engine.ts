/**
 * openapi-backend as the mock's engine: it loads the spec, routes requests to its operations
 * and compiles the request validators (with the project's Ajv). Everything it does per spec
 * happens once at start; per request the mock only looks up a memoised route and calls a
 * compiled validator, keeping openapi-backend's request parsing off the hot path.
 */
import { resolve as resolvePath } from 'node:path';
// Before openapi-backend: stands in for the packages it loads but the mock never calls.
import './openapi-backend-deps.js';
import type { ValidateFunction } from 'ajv';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { createSpecAjv } from '../../spec/ajv.js';
import { exactPlanOf, type ExactPlan } from '../../spec/exact-json.js';
import { declaredProperties, loadSpec, SPEC_PATH, type OpenApiDocument } from '../../spec/index.js';


export type Route =
  | { kind: 'operation'; operationId: string }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-found' };

export interface SpecEngine {
  document: OpenApiDocument;
  /** Which operation a request names, or why none does. */
  route(method: string, path: string): Route;
  /** The compiled createPlant body validator (expects `{ requestBody }`, openapi-backend's form). */
  validateNewPlant: ValidateFunction;
  /** Which numbers of a createPlant body its schema needs read exactly (its integers). */
  newPlantPlan: ExactPlan | undefined;
  /** The properties the spec's Plant declares: exactly what a 200 body carries. */
  plantFields: readonly string[];
  /** The spec's example of a 200 body, for `Prefer: code=200`. */
  plantExample: unknown;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Distinct (method, path) pairs remembered; unknown paths cannot grow memory past this. */
const ROUTE_MEMO_LIMIT = 1024;

export async function loadSpecEngine(specPath: string = SPEC_PATH): Promise<SpecEngine> {
  const document = loadSpec(specPath);
  const bundled = resolvePath(specPath) === SPEC_PATH;
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as unknown as Document,
    // openapi-backend checks documents against the OpenAPI 3.0 meta-schema, which rejects
    // valid 3.1 (license.identifier); the spec is linted by Redocly in the test suite instead.
    quick: true,
    validate: true,
    customizeAjv: (_ajv, ajvOptions, context) =>
      createSpecAjv({
        ...ajvOptions,
        allErrors: true,
        verbose: true,
        // Checking a schema against the 2020-12 meta-schema means compiling that meta-schema in
        // each Ajv: most of the engine's start-up. The bundled spec is linted (Redocly) in the test
        // suite, so only a --spec document is checked, and only its body schema (the one we use).
        validateSchema: bundled ? false : (context as string) === 'requestBodyValidator',
      }) as never,
  });
  await api.init();

  const operation = api.router.getOperation('createPlant');
  if (!operation) throw new Error(`${specPath} has no operation createPlant; the mock serves POST /plants from it.`);
  const [validateNewPlant] = api.validator.getRequestValidatorsForOperation('createPlant') ?? [];
  if (!validateNewPlant) throw new Error(`${specPath}: createPlant has no JSON request body to validate.`);

  const memo = new Map<string, Route>();
  const route = (method: string, path: string): Route => {
    const key = `${method} ${path}`;
    let found = memo.get(key);
    if (found === undefined) {
      found = resolveRoute(method, path);
      if (memo.size >= ROUTE_MEMO_LIMIT) memo.clear();
      memo.set(key, found);
    }
    return found;
  };
  const resolveRoute = (method: string, path: string): Route => {
    const matched = api.router.matchOperation({ method, path, headers: {} });
    if (matched?.operationId) return { kind: 'operation', operationId: matched.operationId };
    const allowed = METHODS.filter((m) => api.router.matchOperation({ method: m, path, headers: {} }));
    if (!allowed.length) return { kind: 'not-found' };
    return { kind: 'method-not-allowed', allow: [...allowed.map((m) => m.toUpperCase()), 'OPTIONS'].join(', ') };
  };

  const okContent = (operation.responses?.['200'] as { content?: Record<string, { examples?: Record<string, { value: unknown }> }> })
    ?.content?.['application/json'];
  const plantExample = Object.values(okContent?.examples ?? {})[0]?.value ?? { name: 'Monstera' };

  // The validator's schema wraps the body as `requestBody` (openapi-backend's form).
  const newPlantPlan = exactPlanOf(validateNewPlant.schema)?.properties?.get('requestBody');
  return { document, route, validateNewPlant, newPlantPlan, plantFields: declaredProperties('Plant', document), plantExample };
}
