/**
 * The precompiled meta-schema validator (openapi/schema/meta-schema.gen.ts, issue 26): it is what the
 * installed Ajv generates, it judges schemas exactly as the contract Ajv's own `validateSchema`
 * did, and through it a broken schema is still refused at load with its pointer and Ajv's reason.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_AJV_OPTIONS, createSpecAjv } from '../ajv.js';
import { compileContract } from '../../operations/compile.js';
import { ContractError } from '../../document/load.js';
import { META_SCHEMA_MODULE_PATH, metaSchemaModuleSource } from '../meta-schema-generator.js';
import { META_SCHEMA_ID, validateMetaSchema } from '../meta-schema.gen.js';

describe('the precompiled meta-schema validator', () => {
  it('is the module the installed Ajv generates (after an Ajv upgrade: npm run gen:meta-schema)', () => {
    const committed = readFileSync(META_SCHEMA_MODULE_PATH, 'utf8');
    expect(committed === metaSchemaModuleSource(), 'openapi/schema/meta-schema.gen.ts is stale: run `npm run gen:meta-schema` and commit it').toBe(true);
  });

  it("runs under Node's own ES module loader, as tsc's output in dist/ (npm test builds it first)", async () => {
    // Node and vitest hand a CommonJS runtime helper of Ajv's differently; `type` items are compared with Ajv's `equal`.
    const module = new URL('../../../dist/openapi/schema/meta-schema.gen.js', import.meta.url).href;
    const script = `import { validateMetaSchema as v } from ${JSON.stringify(module)}; v({ type: ['string', 'string'] }); console.log(JSON.stringify(v.errors.map((e) => e.message)));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script]);
    expect(JSON.parse(stdout)).toContain('must NOT have duplicate items (items ## 0 and 1 are identical)');
  });

  it("checks against the meta-schema Ajv's validateSchema uses by default", () => {
    expect(createSpecAjv(CONTRACT_AJV_OPTIONS).defaultMeta()).toBe(META_SCHEMA_ID);
  });

  // Ajv's own validator, compiled from the same options at run time: what the contract used before.
  // Errors are read only when the schema is refused (Ajv leaves the last ones in place for a boolean
  // schema); a throw is an outcome too (Ajv's `equal` throws on an object without a prototype).
  const ajv = createSpecAjv(CONTRACT_AJV_OPTIONS);
  const outcome = (validate: () => boolean, errors: () => typeof ajv.errors) => {
    try {
      return validate() ? { valid: true } : { valid: false, errors: errors(), text: ajv.errorsText(errors()) };
    } catch (error) {
      return { threw: String(error) };
    }
  };
  const judge = (schema: unknown) =>
    outcome(
      () => validateMetaSchema(schema),
      () => validateMetaSchema.errors,
    );
  const ajvJudge = (schema: unknown) =>
    outcome(
      () => ajv.validateSchema(schema as object) === true,
      () => ajv.errors,
    );

  it.each<[string, unknown]>([
    ['a valid object schema', { type: 'object', required: ['a'], properties: { a: { type: 'string', pattern: '^[a-z]+$' } } }],
    ['a boolean schema', false],
    ['required not an array', { type: 'object', required: 'name' }],
    ['several faults at once', { type: 'objec', required: 'name', minLength: -1, properties: { a: { maximum: 'x' } } }],
    ['a fault deep in $defs', { $defs: { A: { items: { enum: 'x' } }, B: { anyOf: [] } } }],
    ['an $anchor and an $id the core vocabulary refuses', { $anchor: '1bad', $id: 'a#b', properties: { x: { $dynamicAnchor: '-' } } }],
    ['unevaluated and dependent keywords of the wrong type', { unevaluatedProperties: 'no', dependentRequired: { a: 'b' }, dependentSchemas: { a: 1 } }],
    ['a pattern that is not a regular expression (formats are not checked)', { pattern: '(' }],
    ['not an object', 42],
  ])('judges %s as Ajv did', (_what, schema) => {
    expect(judge(schema)).toEqual(ajvJudge(schema));
  });

  it('judges generated schema-like values as Ajv did', () => {
    const keyword = fc.constantFrom(
      'type',
      'required',
      'properties',
      'items',
      'minimum',
      'enum',
      'anyOf',
      '$ref',
      '$id',
      '$anchor',
      'pattern',
      'additionalProperties',
      'unevaluatedItems',
      'const',
      'x-any',
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof({ depthSize: 'small' }, fc.boolean(), fc.dictionary(keyword, tie('value'), { maxKeys: 4 })),
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        tie('schema'),
        fc.array(tie('schema'), { maxLength: 3 }),
        fc.constantFrom('string', 'object', ['string', 'null'], '#/x', 'a#b'),
      ),
    }));
    fc.assert(
      fc.property(schema, (value) => {
        expect(judge(value)).toEqual(ajvJudge(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a broken schema is refused at load with its pointer and the reason', () => {
  const document = (post: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({
    openapi: '3.1.0',
    info: { title: 'broken schemas', version: '1' },
    paths: { '/things': { post: { operationId: 'create', ...post, responses: post.responses ?? { '201': { description: 'made' } } } } },
    components: { schemas: { Fine: { type: 'string' }, ...schemas } },
  });
  const body = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  const refused = (doc: unknown) => {
    try {
      compileContract(doc, 'broken.yaml');
    } catch (error) {
      expect(error).toBeInstanceOf(ContractError);
      return (error as Error).message;
    }
    throw new Error('the document was loaded');
  };

  // A keyword the meta-schema refuses is dropped where it stands, one warning naming it (issue 37 §3;
  // openapi/document/refused-keywords.ts): the rest of the API is still served.
  const dropped = (doc: unknown) => compileContract(doc, 'broken.yaml').warnings;

  it("an operation's request schema: the keyword dropped, with a warning naming it", () => {
    expect(dropped(document({ requestBody: body({ type: 'object', required: 'name' }) }))).toEqual([
      'broken.yaml#/paths/~1things/post/requestBody/content/application~1json/schema/required: required "name" is not JSON Schema 2020-12 (must be array); dropped',
    ]);
  });

  it('a component schema an operation refers to, at the component', () => {
    expect(dropped(document({ requestBody: body({ $ref: '#/components/schemas/Thing' }) }, { Thing: { type: 'object', properties: { n: { type: 'integer', minimum: 'one' } } } }))).toEqual([
      'broken.yaml#/components/schemas/Thing/properties/n/minimum: minimum "one" is not JSON Schema 2020-12 (must be number); dropped',
    ]);
  });

  it("a parameter's schema", () => {
    expect(dropped(document({ parameters: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: -1 } }] }))).toEqual([
      'broken.yaml#/paths/~1things/post/parameters/0/schema/maxLength: maxLength -1 is not JSON Schema 2020-12 (must be >= 0); dropped',
    ]);
  });

  it("an answer's schema, when its validator is first compiled (the mock never compiles them)", () => {
    const contract = compileContract(document({ responses: { '201': { description: 'made', ...body({ type: 'array', items: { enum: 'x' } }) } } }), 'broken.yaml');
    const media = contract.operations.get('create')?.responses.get(201)?.content.get('application/json');
    expect(() => media?.validate).toThrow(
      new ContractError('broken.yaml#/paths/~1things/post/responses/201/content/application~1json/schema: the schema cannot be compiled: schema is invalid: data/items/enum must be array'),
    );
  });

  // What the meta-schema lets through but Ajv refuses to compile (openapi/schema/ajv-refusals.ts): at load, not at the first request.
  it.each([
    ['an empty enum', { type: 'object', properties: { kind: { enum: [] } } }, '/properties/kind', 'enum must have non-empty array'],
    ['nullable without type in a 3.1 schema Ajv reads', { type: 'object', properties: { n: { not: { nullable: 'yes' } } } }, '/properties/n/not', '"nullable" cannot be used without "type"'],
    ['a $dynamicRef to another document', { items: { $dynamicRef: 'other.json#node' } }, '/items', '"$dynamicRef" only supports hash fragment reference'],
    [
      'a ref inside the schema to a component the document lacks',
      { type: 'object', properties: { a: { $ref: '#/components/schemas/Gone' } } },
      '/properties/a',
      "can't resolve reference #/components/schemas/Gone",
    ],
  ])("Ajv's own refusal at load: %s", (_what, schema, pointer, reason) => {
    expect(refused(document({ requestBody: body(schema) }))).toBe(`broken.yaml#/paths/~1things/post/requestBody/content/application~1json/schema${pointer}: the schema cannot be compiled: ${reason}`);
  });

  it("Ajv's own refusal in a component, at the component", () => {
    expect(refused(document({}, { Thing: { type: 'object', properties: { tags: { type: 'array', items: { enum: [] } } } } }))).toBe(
      'broken.yaml#/components/schemas/Thing/properties/tags/items: the schema cannot be compiled: enum must have non-empty array',
    );
  });

  it('a schema naming the 2020-12 dialect is checked like one naming none; one naming a dialect Ajv lacks is still refused', () => {
    const named = (dialect: string) => document({ requestBody: body({ $schema: dialect, type: 'object', required: 'name' }) });
    expect(dropped(named('https://json-schema.org/draft/2020-12/schema#'))).toEqual([
      expect.stringMatching(/schema\/required: required "name" is not JSON Schema 2020-12 \(must be array\); dropped$/),
    ]);
    expect(() => compileContract(named('http://json-schema.org/draft-07/schema#'), 'broken.yaml')).toThrow(/no schema with key or ref "http:\/\/json-schema\.org\/draft-07\/schema#"/);
  });
  // openapi/schema/cycles.ts: before, such a document loaded and every request it met failed with a 500 (a RangeError, the stack overflowed).
  it.each([
    [
      'a union whose branch is an allOf of the union',
      { Pet: { oneOf: [{ $ref: '#/components/schemas/Dog' }] }, Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { required: ['barks'] }] } },
      'Pet',
      'Pet → Dog → Pet',
    ],
    ['a ref to itself', { Loop: { $ref: '#/components/schemas/Loop' } }, 'Loop', 'Loop → Loop'],
    ['a round through not and if', { A: { not: { $ref: '#/components/schemas/B' } }, B: { if: { $ref: '#/components/schemas/A' } } }, 'A', 'A → B → A'],
  ])('a schema that comes back to itself without descending into the value: %s', (_what, schemas, at, round) => {
    const pointer = (name: string) => `/components/schemas/${name}`;
    expect(refused(document({ requestBody: body({ $ref: pointer(at) }) }, schemas))).toBe(
      `broken.yaml#${pointer(at)}: the schema comes back to itself (${round.split(' → ').map(pointer).join(' → ')}) without descending into a property or an item: judging any value by it would never end`,
    );
  });

  it('a discriminator on a base that forty levels of schemas inherit from, each through ten parts, loads (before, the search for its kinds never ended)', () => {
    const schemas: Record<string, unknown> = { Base: { type: 'object', properties: { kind: { type: 'string' } }, discriminator: { propertyName: 'kind' } } };
    for (let level = 1; level <= 40; level++) schemas[`L${level}`] = { allOf: Array.from({ length: 10 }, () => ({ $ref: `#/components/schemas/${level === 1 ? 'Base' : `L${level - 1}`}` })) };
    const contract = compileContract(document({ requestBody: body({ $ref: '#/components/schemas/Base' }) }, schemas), 'kinds.json');
    const validate = contract.operations.get('create')?.requestBody?.content.get('application/json')?.validate;
    expect(validate?.({ kind: 'L1' })).toBe(true);
    expect(validate?.({ kind: 5 })).toBe(false);
  });

  it('a recursive schema that descends into the value each turn (a tree) loads, and judges a deep value', () => {
    const contract = compileContract(
      document(
        { requestBody: body({ $ref: '#/components/schemas/Node' }) },
        { Node: { type: 'object', properties: { children: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/Node' }] } } } } },
      ),
      'tree.yaml',
    );
    const validate = contract.operations.get('create')?.requestBody?.content.get('application/json')?.validate;
    let tree: unknown = {};
    for (let depth = 0; depth < 50; depth++) tree = { children: [tree] };
    expect(validate?.(tree)).toBe(true);
    expect(validate?.({ children: [{ children: 5 }] })).toBe(false);
  });
});
