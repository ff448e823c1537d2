/**
 * The GitHub Actions recipes in examples/ci use only what exists: npm scripts of this repo,
 * verify:image's and the contract suite's real flags and environment names, the mock's
 * environment names, port and admin routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as load } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mockCommand, parseMockArgs } from '../../mocks/config.js';
import { createMockServer } from '../../mocks/server.js';
import { parseVerifyImageArgs } from '../verify-image.js';
import { readRuntimeImage, REPO_ROOT } from './dockerfile.js';
import { run } from '../../mocks/test/processes.js';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Workflow {
  jobs: Record<string, { steps: Step[]; services?: Record<string, { image: string; ports: string[]; env?: Record<string, string> }> }>;
}

const workflow = (name: string): Workflow => load(readFileSync(join(REPO_ROOT, 'examples/ci', name), 'utf8')) as Workflow;
const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** `${{ expression }}` stands for a value only the runner knows. */
const withoutExpressions = (text: string): string => text.replace(/\$\{\{[^}]*\}\}/g, 'X');
const stepsOf = (flow: Workflow): Step[] => Object.values(flow.jobs).flatMap((job) => job.steps);

async function contractHelp(): Promise<string> {
  const { code, output } = await run(process.execPath, [join(REPO_ROOT, 'dist/contract-tests/cli.js'), '--help']);
  expect(code, output).toBe(0);
  return output;
}

describe('examples/ci/provider-contract.yml', () => {
  const flow = workflow('provider-contract.yml');
  const steps = stepsOf(flow);
  const verify = steps.find((step) => step.run?.includes('npm run verify:image')) as Step;

  it("runs this repo's scripts in its checkout", () => {
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout') && step.with?.path)?.with?.path;
    for (const step of steps.filter((s) => s.run?.startsWith('npm '))) {
      expect(step['working-directory']).toBe(checkout);
      const script = /npm run ([\w:-]+)/.exec(step.run as string)?.[1];
      if (script) expect(Object.keys(scripts)).toContain(script);
    }
  });

  it("passes verify:image flags it has, and the contract suite's flags and environment names", async () => {
    const args = withoutExpressions(verify.run as string)
      .split(/\s+/)
      .filter(Boolean);
    const options = parseVerifyImageArgs(args.slice(args.indexOf('--') + 1));
    expect(options.image).toMatch(/^plant-store-provider:/);
    const help = await contractHelp();
    for (const arg of options.suiteArgs.filter((a) => a.startsWith('--'))) expect(help).toContain(`${arg} `);
    for (const name of Object.keys(verify.env ?? {})) expect(help).toMatch(new RegExp(`env:\\s+${name}\\b`));
    const report = steps.find((step) => step.uses?.startsWith('mikepenz/action-junit-report'));
    const junit = options.suiteArgs[options.suiteArgs.indexOf('--junit') + 1] as string;
    expect(junit.endsWith(`/${report?.with?.report_paths}`)).toBe(true);
  });
});

describe('examples/ci/frontend-e2e.yml', () => {
  const flow = workflow('frontend-e2e.yml');
  const [service] = Object.values(Object.values(flow.jobs)[0]?.services ?? {});

  it("runs the mock's image on its port with environment names the mock reads", () => {
    expect(service?.image).toMatch(/plant-store-mock/);
    const names = mockCommand().options.flatMap((option) => (option.envVar ? [option.envVar] : []));
    expect(Object.keys(service?.env ?? {}).filter((name) => !names.includes(name))).toEqual([]);
    // The image's default port, as its ENV makes the mock parse it.
    const saved = process.env.PORT;
    process.env.PORT = readRuntimeImage().env.PORT;
    try {
      expect(service?.ports).toEqual([`${parseMockArgs([]).port}:${parseMockArgs([]).port}`]);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('calls admin routes that answer with the admin token it sets', async () => {
    const adminToken = service?.env?.MOCK_ADMIN_TOKEN as string;
    const mock = await createMockServer({ port: 0, logLevel: 'silent', adminToken, tokens: [service?.env?.MOCK_TOKENS as string] });
    try {
      const calls = stepsOf(flow).flatMap((step) => [...(step.run ?? '').matchAll(/curl .*-H '([^']+)' http:\/\/localhost:\d+(\/\S+)/g)]);
      expect(calls.length).toBeGreaterThan(0);
      for (const [, header, path] of calls) {
        const [name, value] = (header as string).split(/:\s*/);
        expect((await fetch(`${mock.url}${path}`, { headers: { [name as string]: value as string } })).status).toBe(200);
      }
    } finally {
      await mock.close();
    }
  });
});
