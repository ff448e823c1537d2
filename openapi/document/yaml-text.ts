/**
 * YAML (1.2, core schema) or JSON text as a value: what `yaml` (eemeli/yaml) reads, sooner.
 *
 * `yaml` is the reader of record: it reads the YAML 1.2 real projects publish (a multi-line flow
 * collection closed at its key's indentation, which js-yaml refuses), and its value and its error
 * messages are the ones every tool has always had. But it builds a syntax tree and a document of
 * nodes before the value, and on a large document that is most of a start: lago's 877 kB took
 * 1.5 s of CPU and grew the young generation to its cap (RSS 141 MiB for the parse alone), where
 * js-yaml 5, which builds the value directly, took 0.35 s and 84 MiB (docs/benchmarks.md, "Large
 * documents"). So js-yaml reads first, where its value is the same as `yaml`'s by construction, and
 * `yaml` reads everything else:
 * - JSON text: JSON.parse (the same value, faster still);
 * - js-yaml refuses the text (anything it cannot read or doubts, a duplicate key): `yaml` reads it
 *   and words the error;
 * - the text holds an alias (js-yaml is told to take none): `yaml` bounds how far aliases expand;
 * - a `%` directive (`%YAML 1.1` changes the schema) or a tag (`!!float 1` is a string to `yaml`):
 *   `yaml` reads it, as it always did;
 * - a key that is null (`~:`, `null:`): `yaml` names it '' where js-yaml names it 'null'.
 * Both read the core schema's scalars alike (null, booleans, 0o/0x integers, .inf/.nan, -0), and
 * every document of fixtures/real-world/ reads equal (openapi/test/yaml-text.test.ts).
 */
import { CORE_SCHEMA, load as loadFast } from 'js-yaml';
import { parse as parseYaml } from 'yaml';

/**
 * The value of `text`. Throws an error whose message names the line and column
 * (`… at line 3, column 5`), without the library's excerpt of the text.
 */
export function parseYamlText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) {
    try {
      return JSON.parse(body);
    } catch {
      // Not JSON after all (YAML's flow style, a comment): the YAML readers say where it breaks.
    }
  }
  const fast = readFast(body);
  if (fast !== undefined) return fast.value;
  try {
    // Warnings (an unknown tag read as a string) are no reason to print to the console.
    return parseYaml(body, { logLevel: 'error' });
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(message.slice(0, message.indexOf(':\n') === -1 ? undefined : message.indexOf(':\n')));
  }
}

/** A directive line, or a tag where a node may start: text `yaml` reads otherwise than js-yaml. */
const READ_OTHERWISE = /^%|(?:^|[\s[{,])!/m;

/** js-yaml's value of `body` where it is `yaml`'s too; undefined where `yaml` must read it. */
export function readFast(body: string): { value: unknown } | undefined {
  if (READ_OTHERWISE.test(body)) return undefined;
  let value: unknown;
  try {
    value = loadFast(body, { schema: CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return undefined;
  }
  return hasNullKey(value) ? undefined : { value };
}

/** Whether any mapping in `value` (a tree: no aliases) has a key js-yaml wrote as 'null'. */
function hasNullKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key in node) {
      if (key === 'null') return true;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}
