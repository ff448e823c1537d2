/**
 * A multipart/form-data body (RFC 7578) read into its fields, in order, by busboy: every legal
 * Content-Disposition (a token or quoted filename, `filename*=` of RFC 5987, parameters in any
 * order, extra ones), a part with or without its own Content-Type. What is no legal form (no
 * boundary, a truncated body, a malformed part header, a part without a name, too many parts) is
 * the problem a 400 states, never a throw.
 */
import busboy from 'busboy';

/** Parts a form may hold (fields and files together): past it the form is refused, not read on. */
export const MAX_MULTIPART_PARTS = 1000;

export type MultipartRead = { ok: true; fields: [string, string][] } | { ok: false; problem: string; encoding?: true };

/**
 * The fields of `body`, a whole multipart body already read (its size bounded by the mock's
 * --max-body), as `[name, text]` pairs: a text field as its characters, a file as its bytes read as
 * UTF-8 (as before). `maxParts` bounds the parts read.
 */
export function readMultipart(body: Buffer, contentType: string, maxParts = MAX_MULTIPART_PARTS): Promise<MultipartRead> {
  let parser: busboy.Busboy;
  try {
    // Every field and file may be as large as the body itself: the body's own bound (--max-body) is the bound.
    // busboy says partsLimit when the limit's last part ends: one more than allowed is a part too many.
    const size = body.length + 1;
    parser = busboy({ headers: { 'content-type': contentType }, limits: { parts: maxParts + 1, fields: maxParts, files: maxParts, fieldSize: size, fileSize: size } });
  } catch (error) {
    // busboy throws at once for a Content-Type without a boundary (or none it can read).
    return Promise.resolve({ ok: false, problem: `the multipart/form-data Content-Type cannot be read (${(error as Error).message})` });
  }
  return new Promise((resolve) => {
    const fields: [string, string][] = [];
    let refused: MultipartRead | undefined;
    const refuse = (problem: string, encoding?: true): void => {
      refused ??= encoding ? { ok: false, problem, encoding } : { ok: false, problem };
    };
    let named = 0;
    const nameOf = (name: string | undefined): string | undefined => {
      if (typeof name === 'string' && name !== '') {
        named += 1;
        return name;
      }
      refuse('a part of the multipart/form-data body has no name (RFC 7578 §4.2)');
      return undefined;
    };
    parser.on('field', (name, value, info) => {
      const field = nameOf(name);
      if (info.valueTruncated) refuse(`the field ${JSON.stringify(name)} is larger than the body`);
      // busboy decodes a text field by its part's charset (UTF-8 unless it names one), undecodable bytes as U+FFFD:
      // RFC 7578 §5.1 makes a field UTF-8 by default, so bytes that are not are refused as before, not kept replaced.
      if (value.includes('\uFFFD')) refuse('a text field is not valid UTF-8', true);
      if (field !== undefined) fields.push([field, value]);
    });
    parser.on('file', (name, stream, info) => {
      const field = nameOf(name);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A truncated body destroys the open file's stream with busboy's own error; the parser's error says it.
      stream.on('error', () => undefined);
      stream.on('limit', () => refuse(`the file ${JSON.stringify(info.filename ?? name)} is larger than the body`));
      stream.on('end', () => {
        if (field !== undefined) fields.push([field, Buffer.concat(chunks).toString('utf8')]);
      });
    });
    parser.on('partsLimit', () => refuse(`the multipart/form-data body has more than ${maxParts} parts`));
    parser.on('filesLimit', () => refuse(`the multipart/form-data body has more than ${maxParts} parts`));
    parser.on('fieldsLimit', () => refuse(`the multipart/form-data body has more than ${maxParts} parts`));
    parser.on('error', (error: Error) => resolve({ ok: false, problem: `the multipart/form-data body cannot be read: ${error.message}` }));
    parser.on('close', () => {
      if (refused) return resolve(refused);
      // busboy skips a part with no Content-Disposition, or one not of form-data: each is a part without a name.
      const parts = countParts(body, parseBoundary(contentType));
      if (parts > named) return resolve({ ok: false, problem: 'a part of the multipart/form-data body has no Content-Disposition of form-data with a name (RFC 7578 §4.2)' });
      resolve({ ok: true, fields });
    });
    parser.end(body);
  });
}

/** The boundary busboy read (it parsed the same header, so it exists here). */
function parseBoundary(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentType);
  return match?.[1]?.replace(/\\(.)/g, '$1') ?? match?.[2] ?? '';
}

/**
 * The parts `body` opens before its close delimiter, as busboy delimits them: `--boundary` then CRLF
 * at the start or after CRLF. A plain scan (indexOf), linear in the body.
 */
export function countParts(body: Buffer, boundary: string): number {
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const text = Buffer.concat([Buffer.from('\r\n'), body]);
  let parts = 0;
  for (let at = text.indexOf(delimiter); at !== -1; at = text.indexOf(delimiter, at + delimiter.length)) {
    const after = at + delimiter.length;
    if (text[after] === 0x2d && text[after + 1] === 0x2d) return parts;
    if (text[after] === 0x0d && text[after + 1] === 0x0a) parts += 1;
  }
  return parts;
}
