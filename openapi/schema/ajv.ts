/**
 * The one way this project builds an Ajv instance for the spec's schemas: JSON Schema
 * 2020-12 (OpenAPI 3.1's dialect), every error reported, ajv-formats, and int32/int64
 * checked on exact ranges (ajv-formats' int64 only asks Number.isInteger), patterns in a
 * linear-time engine.
 */
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { linearRegExp } from './patterns.js';

// ajv-formats is CommonJS: Node hands its module object as the default export, Vite the function.
type AddFormats = typeof addFormatsModule.default;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2 ** 63);

/**
 * The options of the Ajv that compiles a contract's schemas (openapi/operations/compile.ts), and so of the
 * meta-schema validator precompiled from them (openapi/schema/meta-schema.gen.ts): both must report alike.
 */
export const CONTRACT_AJV_OPTIONS = { allErrors: true, verbose: true, inlineRefs: false } as const satisfies Options;

export function createSpecAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false, // OpenAPI keywords such as `example` are not JSON Schema keywords.
    allErrors: true,
    // An unknown format is an annotation in 3.1 (format-annotation), not a fault to print: Ajv's console
    // line per schema and compile buried a run's report (netlify's `dateTime`: 442 lines).
    logger: false,
    ...options,
    // A spec's patterns run in linear time (openapi/schema/patterns.ts): a hostile spec's `^(a+)+$` cannot freeze the mock.
    // Code compiled at run time skips Ajv's optimising passes, a large share of compiling that left
    // validating no faster (docs/benchmarks.md, "Figures behind the code"); a module generated to be
    // committed (`source: true`) keeps them.
    code: { regExp: linearRegExp, optimize: options.code?.source === true ? 1 : false, ...options.code },
  });
  addFormats(ajv);
  // OpenAPI 3.1's dialect annotates formats (format-annotation): one is asserted only where JSON Schema
  // or the OpenAPI format registry defines it. These are ajv-formats' own, with meanings no spec gave
  // them (its `url` is an absolute http/https/ftp URL; Jupyter Server's `Location: {format: url}` is
  // answered relative, as RFC 9110 §10.2.2 allows), so they stay annotations.
  for (const name of ['url', 'iso-time', 'iso-date-time', 'json-pointer-uri-fragment']) ajv.addFormat(name, true);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
  });
  // Values come from `parseExactJson`, whose view rounds every literal so that this
  // comparison on doubles decides exactly as it would on the literal's digits.
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT64_MIN && n < -INT64_MIN,
  });
  return ajv;
}
