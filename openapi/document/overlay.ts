/**
 * OpenAPI Overlay 1.0.0 (https://spec.openapis.org/overlay/v1.0.0): a document of actions, each a
 * JSONPath `target` in the user's spec and an `update` merged into every node it selects or a
 * `remove: true` that deletes them, applied in order to the parsed spec before it is bundled,
 * upgraded and compiled. It is how a user states what inference cannot know (the `x-mock-*`
 * extensions: openapi/operations/mock-extensions.ts) without editing the spec.
 *
 * Targets are evaluated by jsonpath-plus with `eval: false`: an overlay is input like any spec, and
 * a script or filter expression (`?(...)`, `(...)`) would run its text; such a target is refused
 * at load, naming the action. Every failure is an OverlayError naming the overlay and the pointer.
 */
import { JSONPath } from 'jsonpath-plus';
import { isObject } from '../schema/resolve.js';

/** An overlay that cannot be applied: `overlay#pointer: reason`, one line. */
export class OverlayError extends Error {
  override name = 'OverlayError';

  static at(source: string, pointer: string, reason: string): OverlayError {
    return new OverlayError(`overlay ${source}${pointer ? `#${pointer}` : ''}: ${reason}`);
  }
}

interface Action {
  target: string;
  update?: unknown;
  remove?: boolean;
}

/** Applies one parsed overlay to `document` (mutated); `source` names it in errors and warnings. */
export function applyOverlay(document: unknown, overlay: unknown, source: string): string[] {
  const actions = overlayActions(overlay, source);
  const warnings: string[] = [];
  actions.forEach((action, index) => {
    const where = `/actions/${index}`;
    let found: { value: unknown; parent: unknown; parentProperty: string | number }[];
    try {
      found = JSONPath({ path: action.target, json: document as object, eval: false, resultType: 'all', wrap: true }) as typeof found;
    } catch (error) {
      const reason = /prevented/i.test((error as Error).message) ? 'script and filter expressions are refused (an overlay is never run as code)' : (error as Error).message;
      throw OverlayError.at(source, `${where}/target`, `${JSON.stringify(action.target)}: ${reason}`);
    }
    if (found.length === 0) {
      warnings.push(`${source}#${where}/target: ${JSON.stringify(action.target)} selects nothing in the spec; the action is skipped`);
      return;
    }
    if (action.remove === true) {
      // Array members from the last: removing one shifts the indexes of those after it.
      const ordered = [...found].sort((a, b) => Number(b.parentProperty) - Number(a.parentProperty));
      for (const { parent, parentProperty } of ordered) {
        if (Array.isArray(parent)) parent.splice(Number(parentProperty), 1);
        else if (isObject(parent)) delete parent[String(parentProperty)];
        else throw OverlayError.at(source, `${where}/target`, `${JSON.stringify(action.target)} selects the whole document, which an overlay cannot remove`);
      }
      return;
    }
    for (const { value } of found) {
      if (Array.isArray(value)) value.push(structuredClone(action.update));
      else if (isObject(value) && isObject(action.update)) merge(value, action.update);
      else throw OverlayError.at(source, `${where}/update`, `${JSON.stringify(action.target)} selects a value that is not an object or array, which an update cannot merge into`);
    }
  });
  return warnings;
}

/** The overlay's actions, its shape checked: one OverlayError naming the first problem's pointer. */
function overlayActions(overlay: unknown, source: string): Action[] {
  const refuse = (pointer: string, reason: string): never => {
    throw OverlayError.at(source, pointer, reason);
  };
  if (!isObject(overlay)) return refuse('', 'an overlay is an object with overlay, info and actions');
  if (typeof overlay.overlay !== 'string' || !/^1\.0\.\d+$/.test(overlay.overlay))
    refuse('/overlay', `must be the Overlay version 1.0.x this tool applies (found ${JSON.stringify(overlay.overlay ?? null)})`);
  if (!isObject(overlay.info) || typeof overlay.info.title !== 'string' || typeof overlay.info.version !== 'string') refuse('/info', 'must be an object with a title and a version (strings)');
  if (!Array.isArray(overlay.actions) || overlay.actions.length === 0) return refuse('/actions', 'must be a non-empty array of actions');
  return overlay.actions.map((action: unknown, index: number): Action => {
    const at = `/actions/${index}`;
    if (!isObject(action)) return refuse(at, 'an action is an object with a target and an update or remove: true');
    if (typeof action.target !== 'string' || !action.target.startsWith('$')) return refuse(`${at}/target`, 'must be a JSONPath expression starting with $');
    if (action.remove !== undefined && typeof action.remove !== 'boolean') refuse(`${at}/remove`, 'must be true or false');
    if (action.remove !== true && action.update === undefined) refuse(at, 'needs an update, or remove: true');
    return { target: action.target, update: action.update, remove: action.remove === true };
  });
}

/** `update` merged into `target`: objects member by member, anything else replacing what is there (Overlay 1.0.0, "update"). */
function merge(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(update)) {
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(existing) && isObject(value)) merge(existing, value);
    // Defined, not assigned: a member named __proto__ stays a member, never the object's prototype.
    else Object.defineProperty(target, key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
  }
}
