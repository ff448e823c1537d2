/**
 * Which files a spec's `$ref`s may read (issue 39, item 5). A spec is input, often written by
 * someone else (a vendor's download, a pull request): its refs once read any file the user can,
 * `/dev/zero` grew memory without end, `/proc/self/environ` and `../.aws/credentials` were printed in
 * the start error, a kube config was served at `/__mock/docs/openapi.json`.
 *
 * A ref is followed only to a regular YAML or JSON file (`.yaml`, `.yml`, `.json`) of at most
 * MAX_REF_FILE_BYTES inside the spec's root, found after every symlink is resolved, by no hidden
 * name on the way (`.aws`, `.kube`, `.ssh`, `.env.json`: where credentials live). The root is the
 * folder above the spec's own (a repository's `API_definitions/quality-on-demand.yaml` refers to
 * `../common/`), except where that folder is the filesystem's root, the home folder or the temp
 * folder, shared with everything else: then the spec's own folder. A refusal is one line naming the
 * ref, never a byte of the file.
 */
import { open, realpath } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most bytes one referenced file may hold: the largest public specs' files are a few MB. */
export const MAX_REF_FILE_BYTES = 16 * 1024 * 1024;

const YAML_OR_JSON_FILE = /\.(ya?ml|json)$/i;

/** What refusing a ref throws: its message is the whole story, with no content of the file. */
export class RefRefused extends Error {
  override name = 'RefRefused';
}

/** The folder a spec at `source` may refer into (see above). */
export function refRoot(source: string): string {
  const folder = realpathSync(dirname(source));
  const above = dirname(folder);
  const shared = new Set([dirname(above) === above ? above : '', realOrSelf(homedir()), realOrSelf(tmpdir()), '/']);
  return above === folder || shared.has(above) ? folder : above;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The bytes of the file a ref names (`url` as the ref parser gives it), or RefRefused. */
export async function readConfined(url: string, root: string): Promise<Buffer> {
  const path = url.startsWith('file:') ? fileURLToPath(url) : safeDecode(url);
  if (!YAML_OR_JSON_FILE.test(path)) throw new RefRefused(`${path} is not a YAML or JSON file (.yaml, .yml, .json): a spec's refs read no other`);
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    throw new RefRefused(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const inside = relative(root, real);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new RefRefused(`${path} is outside ${root}, the folder the spec's refs may read (its own folder, or the one above it)`);
  }
  if (inside.split(sep).some((name) => name.startsWith('.'))) throw new RefRefused(`${path} is a hidden file or in a hidden folder, where credentials are kept: a spec's refs read none`);
  const file = await open(real, 'r');
  try {
    if (!(await file.stat()).isFile()) throw new RefRefused(`${path} is not a regular file`);
    // Read to the bound whatever the size says: /proc-like files say 0.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead, buffer } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > MAX_REF_FILE_BYTES) throw new RefRefused(`${path} is larger than ${MAX_REF_FILE_BYTES} bytes, the most a referenced file may hold`);
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks);
  } finally {
    await file.close();
  }
}

/** The path a ref parser URL names, decoded as the parser's own file resolver decodes it; a name it gets wrong is not found, never another file. */
function safeDecode(url: string): string {
  let path = url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  for (const [escaped, character] of [
    ['%23', '#'],
    ['%24', '$'],
    ['%26', '&'],
    ['%2C', ','],
    ['%3F', '?'],
    ['%40', '@'],
  ] as const) {
    path = path.replace(new RegExp(escaped, 'gi'), character);
  }
  try {
    return decodeURI(path);
  } catch {
    return url;
  }
}
