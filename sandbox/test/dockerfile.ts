/** What the repo's Dockerfile says about the image it builds, read with dockerfile-ast. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RuntimeImage {
  /** ENV of the final stage. */
  env: Record<string, string>;
  workdir: string;
  user: string;
  volumes: string[];
  exposed: number[];
  entrypoint: string[];
  cmd: string[];
  /** The HEALTHCHECK's command (exec form) and its flags. */
  healthcheck: { command: string[]; flags: Record<string, string> };
  /** The image each stage starts FROM, ARGs resolved. */
  bases: string[];
}

/** The final stage of the repo's Dockerfile. */
export function readRuntimeImage(path = `${REPO_ROOT}Dockerfile`): RuntimeImage {
  const dockerfile = DockerfileParser.parse(readFileSync(path, 'utf8'));
  const froms = dockerfile.getFROMs();
  const lastFrom = froms[froms.length - 1];
  if (!lastFrom) throw new Error('the Dockerfile has no FROM');
  const last = lastFrom.getRange().start.line;
  const runtime = dockerfile.getInstructions().filter((instruction) => instruction.getRange().start.line > last);
  const of = (keyword: string): Instruction[] => runtime.filter((instruction) => instruction.getKeyword() === keyword);
  const only = (keyword: string): Instruction => {
    const found = of(keyword);
    if (found.length !== 1) throw new Error(`expected one ${keyword} in the final stage, found ${found.length}`);
    return found[0] as Instruction;
  };
  const args = Object.fromEntries(dockerfile.getInitialARGs().flatMap((arg) => arg.getProperties().map((property) => [property.getName(), property.getValue() ?? ''])));
  const env: Record<string, string> = {};
  for (const instruction of dockerfile.getENVs()) {
    if (instruction.getRange().start.line < last) continue;
    for (const property of instruction.getProperties()) env[property.getName()] = property.getValue() ?? '';
  }
  const healthcheck = dockerfile.getHEALTHCHECKs().filter((instruction) => instruction.getRange().start.line > last);
  if (healthcheck.length !== 1) throw new Error('expected one HEALTHCHECK in the final stage');
  const check = healthcheck[0] as (typeof healthcheck)[number];
  return {
    env,
    workdir: only('WORKDIR').getArgumentsContent() ?? '',
    user: only('USER').getArgumentsContent() ?? '',
    volumes: of('VOLUME').flatMap((instruction) => instruction.getArguments().map((argument) => argument.getValue())),
    exposed: of('EXPOSE').flatMap((instruction) => instruction.getArguments().map((argument) => Number(argument.getValue()))),
    entrypoint: execForm(only('ENTRYPOINT').getArgumentsContent()),
    cmd: execForm(only('CMD').getArgumentsContent()),
    healthcheck: {
      command: execForm((check.getArgumentsContent() ?? '').replace(/^CMD\s+/, '')),
      flags: Object.fromEntries(check.getFlags().map((flag) => [flag.getName(), flag.getValue() ?? ''])),
    },
    bases: froms.map((from) => (from.getImageName() ?? '').replace(/^\$\{?(\w+)\}?$/, (_, name: string) => args[name] ?? name)),
  };
}

/** A JSON (exec form) argument list; the shell form is refused, it would not get signals. */
function execForm(content: string | null): string[] {
  const parsed: unknown = JSON.parse(content ?? '');
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new Error(`not an exec form: ${content}`);
  return parsed;
}
