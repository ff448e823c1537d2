/**
 * The YAML reader (openapi/document/yaml-text.ts): js-yaml reads first where its value is `yaml`'s,
 * `yaml` reads the rest, so every text reads to what `yaml` alone made of it, errors included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageFile } from '../../../package/root.js';
import { parseYamlText, readFast } from '../yaml-text.js';

const yamlOf = (text: string): unknown => parse(text, { logLevel: 'error' });

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? yamlFiles(join(dir, entry.name)) : /\.ya?ml$/.test(entry.name) ? [join(dir, entry.name)] : []));
}

describe('YAML text', () => {
  const files = [...yamlFiles(packageFile('fixtures', 'real-world')), packageFile('spec', 'plant-store.openapi.yaml')];

  it.each(files.map((file) => [file.slice(packageFile().length + 1), file]))('%s reads to the value yaml makes of it', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    expect(parseYamlText(text)).toStrictEqual(yamlOf(text));
  });

  it('reads the large documents without building yaml’s document', () => {
    for (const name of ['netlify/swagger.yml', 'overseerr/overseerr-api.yml', 'lago/openapi.yaml']) {
      expect(readFast(readFileSync(packageFile('fixtures', 'real-world', name), 'utf8')), name).toBeDefined();
    }
  });

  // Each read alike by both, or left to yaml: the value is yaml's either way.
  const scalars = ['a: 0b101', 'a: 1_000', 'a: 0o17', 'a: 0x1F', 'a: -0x1F', 'a: +12', 'a: 012', 'a: 1.', 'a: .5', 'a: 1e3', 'a: .inf', 'a: -.Inf', 'a: .NaN'];
  const more = [
    'a: ~',
    'a: Null',
    'a: TRUE',
    'a: yes',
    'a: 2020-01-01',
    'a: -0',
    'a: 9007199254740993',
    '<<: {b: 1}',
    '__proto__: {x: 1}',
    '"null": 1',
    'a: "\\x41\\u00e9\\N"',
    'a: >\n  folded\n\n  more\n',
  ];
  it.each([...scalars, ...more])('reads %j as yaml does', (text) => {
    expect(parseYamlText(text)).toStrictEqual(yamlOf(text));
  });

  // What js-yaml reads otherwise, or refuses: yaml reads it.
  const yamlOnly = ['null: x', '~: x', '? [a, b]\n: x', 'a: !!float 1', 'a: !!binary aGk=', 'a: !foo x', '%YAML 1.1\n---\na: yes', 'a: &x 1\nb: *x', ''];
  it.each(yamlOnly)('leaves %j to yaml', (text) => {
    expect(readFast(text)).toBeUndefined();
    expect(parseYamlText(text)).toStrictEqual(yamlOf(text));
  });

  it('words an error as yaml does, naming the line', () => {
    expect(() => parseYamlText('a: 1\na: 2\n')).toThrow(/^Map keys must be unique at line 2, column 1$/);
    expect(() => parseYamlText('a: [1, 2\n')).toThrow(/at line \d+, column \d+$/);
  });
});
