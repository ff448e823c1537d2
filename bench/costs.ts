/**
 * What hostile input costs, as ratios to a control of the same size measured in the same process
 * and round (issue 40: these were assertions in the tests, which a busy machine could fail). The
 * tests keep what does not depend on speed (every value masked, every attack answered); the bench
 * keeps the cost:
 *
 * - masking the journal: listing entries whose requests quoted 1 150 cookies ÷ listing entries that
 *   quoted one (the same bodies). It was over 30 when masking cost credentials × text (issue 24 row 8).
 * - a spec's backtracking pattern `^(a+)+$`: a POST whose name is 27 `a` and a `!` ÷ a control of the
 *   same size failing at its first character. A backtracking engine costs thousands of times the
 *   control (issue 24 #2); the linear one about the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { SPEC_PATH } from '../openapi/plant-store.js';
import { median } from './summary.js';
import { availableTargets, BENCH_TOKEN, startTarget, type RunningTarget, type TargetSpec } from './targets.js';

export interface CostsResult {
  /** Median over rounds of listing the 1 150-cookie entries ÷ listing the one-cookie ones. */
  maskingRatio: number;
  maskingRatios: number[];
  /** Median over rounds of the attack's time ÷ the control's on `^(a+)+$`. */
  patternRatio: number;
  patternRatios: number[];
}

export interface CostsOptions {
  rounds: number;
  serverCpu?: string;
  log: (line: string) => void;
}

export async function measureCosts(options: CostsOptions): Promise<CostsResult> {
  const memory = availableTargets().targets.find((t) => t.id === 'memory') as TargetSpec;
  const maskingRatios = await measureMasking(memory, options);
  options.log(`  masking: 1 150 cookies ÷ one, per round ${maskingRatios.map((r) => r.toFixed(2)).join(', ')}`);
  const patternRatios = await measurePattern(memory, options);
  options.log(`  ^(a+)+$: attack ÷ control, per round ${patternRatios.map((r) => r.toFixed(2)).join(', ')}`);
  return { maskingRatio: median(maskingRatios), maskingRatios, patternRatio: median(patternRatios), patternRatios };
}

const COOKIES = 1150;
const MASKED_REQUESTS = 40;

async function measureMasking(memory: TargetSpec, options: CostsOptions): Promise<number[]> {
  const values = Array.from({ length: COOKIES }, (_, i) => `k${String(i).padStart(7, '0')}`);
  const manyCookies = values.map((value, i) => `${i.toString(36)}=${value}`).join(';');
  const body = JSON.stringify({ name: values.map((value) => `${value} ${'x'.repeat(43)}`).join(' ') });
  const mock = await startTarget({ ...memory, command: [...memory.command, '--log-level', 'silent', '--max-body', String(256 * 1024)] }, { cpus: options.serverCpu });
  try {
    const send = async (cookie: string): Promise<void> => {
      const answer = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json', cookie }, body });
      await answer.arrayBuffer();
    };
    let last = await listing(mock, 0).then((l) => l.last);
    // Warm-up: the first listings compile the code paths both listings take.
    for (let i = 0; i < 4; i++) await send(`${values[0] as string};${manyCookies}`.slice(0, 200));
    last = (await listing(mock, last)).last;
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      for (let i = 0; i < MASKED_REQUESTS; i++) await send(`a=${values[0] as string}`);
      const control = await listing(mock, last);
      for (let i = 0; i < MASKED_REQUESTS; i++) await send(manyCookies);
      const attack = await listing(mock, control.last);
      last = attack.last;
      ratios.push(attack.ms / control.ms);
    }
    return ratios;
  } finally {
    await mock.stop();
  }
}

/** Lists the entries after `after`, whole (every entry masked and written), and how long it took. */
async function listing(mock: RunningTarget, after: number): Promise<{ ms: number; last: number }> {
  const started = performance.now();
  const answer = await fetch(`${mock.url}/__mock/requests?whole=true&limit=${MASKED_REQUESTS}&after=${after}`);
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`the journal's listing answered ${answer.status}`);
  return { ms, last: (JSON.parse(text) as { last: number }).last };
}

async function measurePattern(memory: TargetSpec, options: CostsOptions): Promise<number[]> {
  const document = load(readFileSync(SPEC_PATH, 'utf8')) as { components: { schemas: { Plant: { properties: { name: { pattern?: string } } } } } };
  document.components.schemas.Plant.properties.name.pattern = '^(a+)+$';
  const dir = mkdtempSync(join(tmpdir(), 'bench-patterns-'));
  const spec = join(dir, 'spec.yaml');
  writeFileSync(spec, dump(document));
  const mock = await startTarget(
    { ...memory, command: [...memory.command, '--log-level', 'silent', '--spec', spec], probe: { path: '/plants', status: 200, body: (id) => ({ id, name: 'aaa' }) } },
    { cpus: options.serverCpu },
  );
  const post = async (name: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${mock.url}/plants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_TOKEN}` },
      body: JSON.stringify({ id: 1, name }),
    });
    await response.arrayBuffer();
    if (response.status !== 400) throw new Error(`POST /plants with name ${name} answered ${response.status}, not 400`);
    return performance.now() - started;
  };
  try {
    // V8's backtracking engine doubles its time per added `a`: 27 of them cost it about a second.
    const attack = `${'a'.repeat(27)}!`;
    const control = `${'b'.repeat(27)}!`; // fails the same pattern at its first character
    await post(control); // compiles and warms the request path
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      let controlMs = 0;
      let attackMs = 0;
      for (let i = 0; i < 5; i++) {
        controlMs += await post(control);
        attackMs += await post(attack);
      }
      ratios.push(attackMs / controlMs);
    }
    return ratios;
  } finally {
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
