import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packageFile, packageRootOf } from '../root.js';

const dir = mkdtempSync(join(tmpdir(), 'package-root-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the package root', () => {
  it('is the nearest directory above a module that holds a package.json, however deep the module sits', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    mkdirSync(join(dir, 'dist', 'start', 'chunks'), { recursive: true });
    mkdirSync(join(dir, 'openapi'), { recursive: true });
    expect(packageRootOf(join(dir, 'dist', 'start', 'chunks', 'chunk-A.js'))).toBe(dir);
    expect(packageRootOf(join(dir, 'openapi', 'plant-store.ts'))).toBe(dir);
    writeFileSync(join(dir, 'dist', 'package.json'), '{}');
    expect(packageRootOf(join(dir, 'dist', 'start', 'cli.js'))).toBe(join(dir, 'dist'));
  });

  it("is this package's, where its spec is", () => {
    expect(packageFile('spec', 'plant-store.openapi.yaml')).toBe(join(PACKAGE_ROOT, 'spec', 'plant-store.openapi.yaml'));
    expect(packageRootOf(join(PACKAGE_ROOT, 'package', 'root.ts'))).toBe(PACKAGE_ROOT);
  });
});
