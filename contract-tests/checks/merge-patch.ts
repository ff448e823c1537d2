/**
 * What a PATCH's answer (or a read after it) may show for a member sent: the value sent, or the
 * stored one merged with it as RFC 7396 merges nested objects. A JSON body a PATCH declares as
 * `application/json` says nothing of which, and both are common (a nested object replaced whole,
 * or merged member by member), so both are correct; a provider that drops or changes a member
 * sent still fails.
 */
import { isObject } from '../../openapi/schema/resolve.js';

/** Deeper than this a nested value is compared whole. */
const MAX_DEPTH = 32;

/** Whether `got` is `sent` merged into some stored value: every member sent is there with its value (recursively), a null one removed. */
export function holdsMergePatch(sent: unknown, got: unknown, depth = 0): boolean {
  if (!isObject(sent) || !isObject(got) || depth >= MAX_DEPTH) return JSON.stringify(sent) === JSON.stringify(got);
  for (const [name, value] of Object.entries(sent)) {
    if (value === null) {
      if (Object.hasOwn(got, name) && got[name] !== null) return false;
    } else if (!Object.hasOwn(got, name) || !holdsMergePatch(value, got[name], depth + 1)) return false;
  }
  return true;
}
