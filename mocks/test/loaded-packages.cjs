// Preloaded (`node -r`) into the mock's process by startup-imports.test.ts: on SIGUSR2 it writes
// the npm packages loaded so far through Node's CommonJS loader (every package the mock imports
// that is CommonJS, ESM imports of them included) and Node's own public modules loaded so far
// (as `node:name`), as one JSON line on stderr.
'use strict';
const Module = require('node:module');

process.on('SIGUSR2', () => {
  const packages = new Set();
  for (const file of Object.keys(Module._cache)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match) packages.add(match[1]);
  }
  for (const entry of process.moduleLoadList) {
    const match = /^NativeModule ([a-z_/]+)$/.exec(entry);
    if (match && !match[1].startsWith('internal/')) packages.add(`node:${match[1]}`);
  }
  process.stderr.write(`loaded-packages ${JSON.stringify([...packages].sort())}\n`);
});
