/**
 * Names the 3.0 → 3.1 upgrader must not read as keywords. @scalar/openapi-upgrader 0.1 rewrites
 * every object it meets that holds `example` (into `examples`), `nullable`, `exclusiveMinimum`,
 * `exclusiveMaximum` or `x-webhooks`, maps of names included: a property called `example` became
 * a property called `examples` holding a list (qdrant's FeedbackItem), which no longer compiles.
 * Before the upgrade such a name, wherever a map of names holds it (name-maps.ts), is set aside
 * under a key no document uses; after it, put back, in the same place among its siblings.
 */
import { DATA_KEYS, NAME_MAPS } from './name-maps.js';
import { isObject } from '../schema/resolve.js';

/** The keys the upgrader reads as keywords on any object (its upgrade-from-three-to-three-one.js). */
const UPGRADER_KEYWORDS: ReadonlySet<string> = new Set(['example', 'nullable', 'exclusiveMinimum', 'exclusiveMaximum', 'x-webhooks']);
/** What a name is set aside under: a NUL is in no name a document means (JSON and YAML allow it, nobody writes it). */
const SET_ASIDE = '\u0000plant-store-name:';
/** Deeper than any real document; the loader refuses deeper nesting first. */
const MAX_DEPTH = 512;

/** Sets aside, in place, every name in a map of names that the upgrader would read as a keyword; true when it found one. */
export function setAsideNames(document: Record<string, unknown>): boolean {
  let found = false;
  const walk = (value: unknown, namesHere: boolean, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, false, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    if (namesHere && Object.keys(value).some((key) => UPGRADER_KEYWORDS.has(key))) {
      renameKeys(value, (key) => (UPGRADER_KEYWORDS.has(key) ? SET_ASIDE + key : key));
      found = true;
    }
    for (const key of Object.keys(value)) {
      if (!namesHere && DATA_KEYS.has(key)) continue;
      walk(value[key], !namesHere && NAME_MAPS.has(key), depth + 1);
    }
  };
  walk(document, false, 0);
  return found;
}

/** Puts back, in place, every name `setAsideNames` set aside. */
export function restoreNames(document: Record<string, unknown>): void {
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    if (Object.keys(value).some((key) => key.startsWith(SET_ASIDE))) renameKeys(value, (key) => (key.startsWith(SET_ASIDE) ? key.slice(SET_ASIDE.length) : key));
    for (const key of Object.keys(value)) walk(value[key], depth + 1);
  };
  walk(document, 0);
}

/** Renames keys in place, keeping their order (a map's order is the author's: properties are shown in it). */
function renameKeys(object: Record<string, unknown>, rename: (key: string) => string): void {
  const entries = Object.entries(object);
  for (const [key] of entries) delete object[key];
  for (const [key, value] of entries) object[rename(key)] = value;
}
