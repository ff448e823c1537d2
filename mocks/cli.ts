#!/usr/bin/env node
/**
 * `npm start`'s entry: Node's compile cache on (Node 22.1 and later) before the mock's modules
 * load, then ./main.ts. A start then reuses the code V8 compiled the time before instead of
 * compiling every module again (docs/benchmarks.md, start-up).
 */
import module from 'node:module';
import { packageFile } from '../package/root.js';

// Beside the package's own dependencies, not in the shared temporary directory another user could write to.
const CACHE = packageFile('node_modules', '.cache', 'plant-store-mock');
if ('enableCompileCache' in module && typeof module.enableCompileCache === 'function') module.enableCompileCache(CACHE);
await import('./main.js');
