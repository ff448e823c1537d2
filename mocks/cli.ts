#!/usr/bin/env node
/**
 * `npm start`'s entry: Node's compile cache on (Node 22.1 and later) before the mock's modules
 * load, then ./main.ts. A start then reuses the code V8 compiled the time before instead of
 * compiling every module again (docs/benchmarks.md, start-up).
 */
import module from 'node:module';
import { cacheDirectory } from '../package/root.js';

if ('enableCompileCache' in module && typeof module.enableCompileCache === 'function') module.enableCompileCache(cacheDirectory());
await import('./main.js');
