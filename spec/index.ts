/**
 * Where the bundled Plant Store OpenAPI document is, and the types generated from it
 * (openapi-typescript). Every tool reads the document through spec/contract.ts.
 */
import { fileURLToPath } from 'node:url';
import type { components } from './plant-store.gen.js';

/** Absolute path of the spec; the one file every validator is compiled from. */
export const SPEC_PATH = fileURLToPath(
  // Compiled code runs from dist/spec/; the YAML stays in spec/.
  new URL(import.meta.url.includes('/dist/spec/') ? '../../spec/plant-store.openapi.yaml' : './plant-store.openapi.yaml', import.meta.url),
);

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
export type SpecError = components['schemas']['Error'];
