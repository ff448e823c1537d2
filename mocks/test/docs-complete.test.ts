/**
 * Nothing a user needs is lost in the guides (issue 40): every flag and environment variable the
 * three commands' `--help` prints, and every `/__mock` route with each method it takes, is written
 * somewhere in README.md or docs/*.md; and every relative link of those pages resolves, to a file
 * that exists and, for an `#anchor`, to a heading of that page.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXED_ADMIN_PATHS } from '../admin/routes.js';
import { useMockForSpec } from './mock-under-test.js';

const ROOT = new URL('../../', import.meta.url);
const PAGES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const TEXT = new Map(PAGES.map((page) => [page, readFileSync(new URL(page, ROOT), 'utf8')]));
const ALL = [...TEXT.values()].join('\n');

/** The commands a user runs, as built: the mock (`npm start`), the suite (`npm run contract`), the Prism mock. */
const COMMANDS = {
  mock: 'dist/start/cli.js',
  contract: 'dist/contract-tests/cli.js',
  prism: 'dist/mocks/prism/cli.js',
};

/** What a command's `--help` names: its long flags and the environment variables they read. */
interface Help {
  flags: string[];
  env: string[];
}

async function helpOf(file: string): Promise<Help> {
  // Rejects, with the output, when the command exits other than 0.
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(new URL(file, ROOT)), '--help'], { encoding: 'utf8' });
  const flags = [...stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] as string).filter((flag) => flag !== '--help');
  // commander wraps "(env: NAME)" across lines; the name itself never breaks.
  const env = [...stdout.replace(/\s+/g, ' ').matchAll(/env: ([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] as string);
  return { flags, env };
}

describe('every flag of every command is documented', () => {
  // The three commands at once, each in a process of its own, not one after another.
  let helps: Map<string, Promise<Help>>;
  beforeAll(() => {
    helps = new Map(Object.values(COMMANDS).map((file) => [file, helpOf(file)]));
    // Each test awaits its own; none is left unobserved if one fails first.
    for (const help of helps.values()) help.catch(() => undefined);
  });
  for (const [name, file] of Object.entries(COMMANDS)) {
    it(`${name} (${file} --help)`, async () => {
      const { flags, env } = await (helps.get(file) as Promise<Help>);
      expect(flags.length).toBeGreaterThan(3);
      // Written as code: `--flag` or `--flag value`.
      expect(flags.filter((flag) => !ALL.includes(`\`${flag}\``) && !ALL.includes(`\`${flag} `))).toEqual([]);
      expect(env.filter((variable) => !new RegExp(`\\b${variable}\\b`).test(ALL))).toEqual([]);
    });
  }
});

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const plant = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const profile = { type: 'object', properties: { bio: { type: 'string' } } };
const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
/** A collection (/plants, and /users under which a document lives) and a singleton document: every kind of admin route. */
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Routes', version: '1' },
  paths: {
    '/plants': { post: { operationId: 'createPlant', requestBody: { required: true, ...json(plant) }, responses: { '201': { description: 'ok', ...json(plant) } } } },
    '/users': { post: { operationId: 'createUser', requestBody: { required: true, ...json(plant) }, responses: { '201': { description: 'ok', ...json(plant) } } } },
    '/users/{id}': { parameters: [id], get: { operationId: 'getUser', responses: { '200': { description: 'ok', ...json(plant) } } } },
    '/users/{id}/profile': {
      parameters: [id],
      get: { operationId: 'getProfile', responses: { '200': { description: 'ok', ...json(profile) } } },
      put: { operationId: 'putProfile', requestBody: { required: true, ...json(profile) }, responses: { '200': { description: 'ok', ...json(profile) } } },
    },
  },
};

/** `METHOD /__mock/…` as the guides write a route (in code), each path's `{name}` standing for any one segment. */
const DOCUMENTED = [...ALL.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/__mock[^`?\s]*)/g)].map((m) => ({
  method: m[1] as string,
  path: new RegExp(
    `^${(m[2] as string)
      .replace(/\/$/, '')
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{[^}]+\}/g, '[^/]+')}$`,
  ),
}));

describe('every /__mock route is documented', () => {
  const mock = useMockForSpec(SPEC);

  it('with each method it takes (asked of the running mock: its 405 lists them)', async () => {
    // The pages' own script and style files are no route a user calls.
    const paths = [...FIXED_ADMIN_PATHS.filter((path) => !/\.(css|js)$/.test(path)), '/__mock/requests/1', '/__mock/plants', '/__mock/users/7/profile'];
    const routes: string[] = [];
    for (const path of paths) {
      const answer = await fetch(`${mock.current.url}${path}`, { method: 'PROPFIND' });
      await answer.arrayBuffer();
      expect(answer.status, path).toBe(405);
      const allow = (answer.headers.get('allow') ?? '').split(/,\s*/).filter((method) => method && method !== 'OPTIONS' && method !== 'HEAD');
      expect(allow.length, path).toBeGreaterThan(0);
      routes.push(...allow.map((method) => `${method} ${path}`));
    }
    expect(routes.length).toBeGreaterThan(paths.length);
    const undocumented = routes.filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return !DOCUMENTED.some((documented) => documented.method === method && documented.path.test(path.replace(/(.)\/$/, '$1')));
    });
    expect(undocumented).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The page without its fenced blocks (a `# comment` in a shell block is no heading, a link there no link). */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Every relative link and image of a page (inline code left out: `[x](y)` there is text). */
function linksOf(markdown: string): string[] {
  return [
    ...withoutCode(markdown)
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('every relative link of README.md and docs/*.md resolves', () => {
  for (const [page, markdown] of TEXT) {
    it(page, () => {
      const broken: string[] = [];
      for (const target of linksOf(markdown)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const url = file === '' ? new URL(page, ROOT) : new URL(file, new URL(page, ROOT));
        if (!existsSync(url)) {
          broken.push(`${target}: no such file`);
        } else if (anchor !== undefined && url.pathname.endsWith('.md') && statSync(url).isFile()) {
          if (!anchorsOf(readFileSync(url, 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${target}: no such heading`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
