/**
 * The node flags the mock runs with (mocks/node-flags.ts) are the same wherever it is started as a
 * user starts it: `npm start`, the image's entrypoint, and the bench that measures it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableTargets, proxyTarget } from '../../bench/targets.js';
import { MOCK_NODE_FLAGS, MOCK_START } from '../node-flags.js';

const ROOT = join(import.meta.dirname, '../..');

describe('the mock runs with the same node flags everywhere', () => {
  it('npm start passes them before the script', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // `exec` so a signal sent to `npm start`'s shell reaches the mock itself.
    expect(scripts.start).toBe(['exec', 'node', ...MOCK_NODE_FLAGS, MOCK_START].join(' '));
  });

  it('the image runs the mock with them, named or by its flags alone', () => {
    const entrypoint = readFileSync(join(ROOT, 'sandbox/entrypoint.sh'), 'utf8');
    const runs = entrypoint.split('\n').filter((line) => line.includes(MOCK_START));
    expect(runs).toHaveLength(2);
    for (const line of runs) expect(line).toContain(`exec node ${MOCK_NODE_FLAGS.join(' ')} "$app/${MOCK_START}"`);
  });

  it('the bench measures the mock started with them, in every target that runs it', () => {
    const mocks = [...availableTargets(join(ROOT, 'dist/mocks/cli.js'), '/usr/bin/redis-server').targets, proxyTarget('http://127.0.0.1:1')].filter((target) =>
      target.command.some((part) => part.endsWith('cli.js') && !part.includes('prism')),
    );
    expect(mocks.map((target) => target.id).sort()).toEqual(['baseline', 'memory', 'proxy', 'redis', 'redis-2', 'state-file']);
    for (const target of mocks) expect(target.command.slice(1, 1 + MOCK_NODE_FLAGS.length)).toEqual(MOCK_NODE_FLAGS);
  });
});
