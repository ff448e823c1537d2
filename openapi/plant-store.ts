/**
 * Where the bundled Plant Store OpenAPI document is, and the types generated from it
 * (openapi-typescript). Every tool reads the document through openapi/operations/compile.ts.
 */
import { packageFile } from '../package/root.js';
import type { components } from './plant-store.gen.js';

/** Absolute path of the spec; the one file every validator is compiled from. */
export const SPEC_PATH = packageFile('spec', 'plant-store.openapi.yaml');

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
export type SpecError = components['schemas']['Error'];
