/**
 * `npm run contract -- --profile stateless` against the Prism mock (`npm run mock:prism`), both run
 * in this process as their command lines run them (real HTTP; the processes themselves are tested
 * in mocks/prism/test/prism.test.ts and contract-tests/test/cli.test.ts): every check the profile keeps passes, and
 * the report names each check or case it leaves out with the reason. Without the profile the same
 * run fails: the profile is what makes it pass.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startPrismMock } from '../../mocks/prism/server.js';
import { contractCommand, parseContractArgs } from '../cli-options.js';
import { PROFILES, ruleTakes } from '../options.js';
import { runContract } from './contract-command.js';

const quiet = () => contractCommand().configureOutput({ writeErr: () => {}, writeOut: () => {} });

describe('--profile stateless', () => {
  it('is read from the flag and PLANT_STORE_PROFILE; an unknown profile is a usage error', () => {
    expect(parseContractArgs(['--profile', 'stateless'], quiet()).profile).toBe('stateless');
    expect(parseContractArgs([], quiet()).profile).toBeUndefined();
    expect(() => parseContractArgs(['--profile', 'lenient'], quiet())).toThrow(/--profile/);
  });

  it('passes against the Prism mock, naming what it leaves out and why; without it the same run fails', async () => {
    const prism = await startPrismMock({ port: 0 });
    onTestFinished(() => prism.close());
    const args = ['--base-url', prism.url, '--token', 'contract-token', '--seed', '7', '--generated', '10'];
    const withProfile = await runContract([...args, '--profile', 'stateless']);
    expect(withProfile.output).not.toMatch(/\bFAIL/);
    expect(withProfile.code, withProfile.output).toBe(0);
    // The bundled spec has no collection to read back, so the stateful checks keep their own reason (not applicable).
    for (const rule of PROFILES.stateless.filter((r) => ['response_echoes_request', 'ignored_auth'].includes(r.check))) expect(withProfile.output).toContain(rule.reason);
    expect(withProfile.output).toMatch(/^PASSED/m);
    const without = await runContract(args);
    expect(without.code).toBe(1);
  });

  // petstore-expanded: `id` an int64 path parameter, `limit` an integer query (the suite sends ids past the int64 range
  // and `limit=`); parameter-styles: every style and place, which the mock reads as the stateful mock does (seeds 2, 4
  // and 7 once drew a cookie item the suite sent unencoded, which node refused to send); problem-details: an operation
  // without responses (answered 204) and RFC 9457 errors; bookings-3.1: writeOnly card and cvc in an answer with no
  // example (Prism's sampler wrote them outside their patterns). A spec's seeds run at once against one Prism mock.
  it.each([
    ['petstore-expanded-3.0', ['7']],
    ['parameter-styles', ['2', '7']],
    ['problem-details', ['7']],
    ['bookings-3.1', ['7']],
  ])("passes against the Prism mock serving a user's spec (%s, seeds %j), whose parameters the mock judges exactly", async (name, seeds) => {
    const spec = fileURLToPath(new URL(`../../fixtures/specs/${name}/openapi.yaml`, import.meta.url));
    const prism = await startPrismMock({ port: 0, spec });
    onTestFinished(() => prism.close());
    const args = ['--base-url', prism.url, '--spec', spec, '--token', 'contract-token', '--profile', 'stateless'];
    const results = await Promise.all(seeds.map((seed) => runContract([...args, '--seed', seed])));
    for (const result of results) {
      expect(result.output).not.toMatch(/\bFAIL/);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/^PASSED/m);
    }
  });
});

describe("the profile's case ids", () => {
  const auth = PROFILES.stateless.find((rule) => rule.check === 'ignored_auth');

  it('take the same case of every operation when a run names them by operation, and nothing else', () => {
    expect(auth).toBeDefined();
    const rule = auth as NonNullable<typeof auth>;
    expect(ruleTakes(rule, 'generated:auth-token-prefix')).toBe(true);
    expect(ruleTakes(rule, 'generated:getPet/auth-token-prefix')).toBe(true);
    expect(ruleTakes(rule, 'fixture:invalid-token')).toBe(true);
    // A never-issued key beside the valid credential, whatever its header is called.
    expect(ruleTakes(rule, 'generated:createNote/auth-wrong-x-tenant-key')).toBe(true);
    // What a stateless mock can judge stays in: no credential, an empty one, the valid one.
    expect(ruleTakes(rule, 'generated:getPet/auth-no-credential')).toBe(false);
    expect(ruleTakes(rule, 'generated:auth-empty-token-with-space')).toBe(false);
    expect(ruleTakes(rule, 'generated:getPet/name-escape-short-forms')).toBe(false);
  });
});
