/**
 * What the package ships (`npm pack`: the image's install, `npm ci --omit=dev`) imports only
 * runtime dependencies and Node's own modules: a shipped file importing a devDependency
 * (testcontainers, vitest …) would fail in the image the day something ran it. Dev scripts such as
 * `npm run verify:image` (testcontainers) run from a clone and are left out of the package.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOk } from '../../mocks/test/processes.js';
import { REPO_ROOT } from './dockerfile.js';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const BUILTIN = new Set(builtinModules);

/** The packages a JavaScript file names: static and dynamic imports, require() and createRequire(…)(…) calls. */
function packagesOf(text: string): Set<string> {
  const names = new Set<string>();
  const patterns = [
    // `from` of an import or export statement, not the word in a string (`'has no from'`).
    /\b(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    // createRequire(…)('name'), not esbuild's call of a CommonJS module's function: `(0, ns.createHash)("sha256")`.
    /(?<!\(0,\s*[\w$.]+)\)\s*\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g,
    /^import\s*['"]([^'"]+)['"]/gm,
  ];
  for (const pattern of patterns) {
    for (const [, specifier] of text.matchAll(pattern)) {
      if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
    }
  }
  return names;
}

describe('the packed files', () => {
  it('import only runtime dependencies and built-in modules (verify-image, which needs testcontainers, is not shipped)', async () => {
    const packed = JSON.parse(await runOk('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT })) as Array<{ files: Array<{ path: string }> }>;
    const files = (packed[0]?.files ?? []).map((file) => file.path).filter((path) => /\.(c|m)?js$/.test(path));
    expect(files).toContain('dist/start/cli.js');
    expect(files).not.toContain('dist/sandbox/verify-image.js');
    expect(files).not.toContain('dist/sandbox/bundle.js');
    const wrong: string[] = [];
    for (const file of files) {
      for (const name of packagesOf(readFileSync(join(REPO_ROOT, file), 'utf8'))) {
        if (BUILTIN.has(name) || name in manifest.dependencies) continue;
        wrong.push(`${file} imports ${name}${name in manifest.devDependencies ? ' (a devDependency)' : ''}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds an import of a devDependency where there is one (the scan can fail)', () => {
    expect(packagesOf(readFileSync(join(REPO_ROOT, 'dist/sandbox/verify-image.js'), 'utf8'))).toContain('testcontainers');
    expect(packagesOf("const { prettyFactory } = createRequire(import.meta.url)('pino-pretty');")).toEqual(new Set(['pino-pretty']));
    expect(packagesOf('import {\n  a,\n  b as c,\n} from "ajv";\nexport * from "pino";')).toEqual(new Set(['ajv', 'pino']));
    expect(packagesOf("if (typeof from !== 'string') return 'has no from';")).toEqual(new Set());
    expect(packagesOf('let key = (0, import_node_crypto.createHash)("sha256").update(text);')).toEqual(new Set());
  });
});
