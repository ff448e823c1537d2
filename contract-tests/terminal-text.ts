/**
 * Text from a provider made safe to print: every character that could move the cursor, recolour,
 * retitle or reorder a terminal (C0 controls but tab, DEL, C1 controls, bidi overrides and
 * isolates, line and paragraph separators) is shown as an escape (`\x1b`, `\u202e`) instead. A
 * report line never holds a line break of the provider's making, so no answer can forge a line.
 */

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `text` holds anything terminalSafe would escape. */
export function hasUnsafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/** One line of a human report, its unsafe characters escaped. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Every line of a multi-line report made safe (line breaks between lines kept). */
export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}
