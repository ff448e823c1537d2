/**
 * Generates openapi/schema/meta-schema.gen.ts (`npm run gen:meta-schema` writes it): the validator of the
 * JSON Schema meta-schema our Ajv checks a spec's schemas against, precompiled by Ajv's standalone
 * code generation (https://ajv.js.org/standalone.html) from the contract's Ajv options, so a start
 * no longer compiles the meta-schema and its vocabularies before checking the first schema.
 * openapi/schema/test/meta-schema.test.ts fails when the committed module differs from what the installed
 * Ajv generates (after an Ajv upgrade: run `npm run gen:meta-schema`).
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CONTRACT_AJV_OPTIONS, createSpecAjv } from './ajv.js';
import { nativeRegExp, standaloneModuleSource } from './standalone.js';
import { packageFile } from '../../package/root.js';

/** Where the generated module is committed (in openapi/schema/, also when this runs from dist/). */
export const META_SCHEMA_MODULE_PATH = packageFile('openapi', 'schema', 'meta-schema.gen.ts');

/** The text of openapi/schema/meta-schema.gen.ts as the installed Ajv generates it. */
export function metaSchemaModuleSource(): string {
  // The meta-schema's own two patterns (`^[^#]*#?$`, `^[A-Za-z_][-A-Za-z0-9._]*$`) are Ajv's, fixed and without nested repetition.
  const ajv = createSpecAjv({ ...CONTRACT_AJV_OPTIONS, code: { source: true, esm: true, regExp: nativeRegExp } });
  const id = ajv.defaultMeta();
  if (typeof id !== 'string') throw new Error('Ajv has no default meta-schema');
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`Ajv does not know the meta-schema ${id}`);
  const source = standaloneModuleSource(ajv, validate, 'openapi/schema/meta-schema-generator.ts (`npm run gen:meta-schema`)', [
    `/** The meta-schema's id: a schema naming no other \`$schema\` is checked against it. */`,
    `export const META_SCHEMA_ID = ${JSON.stringify(id)};`,
    "/** Ajv's `validateSchema` for a schema without another `$schema`, precompiled. */",
    'export const validateMetaSchema: ValidateFunction = validate;',
  ]);
  if (!source.includes('new RegExp(')) throw new Error("the meta-schema's patterns are not compiled with V8's RegExp");
  return source;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(META_SCHEMA_MODULE_PATH, metaSchemaModuleSource());
  console.log(`wrote ${META_SCHEMA_MODULE_PATH}`);
}
