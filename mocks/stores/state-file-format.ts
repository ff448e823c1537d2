/**
 * The state file's lines: one record per line, `<crc32 of the JSON, 8 hex digits> <JSON>\n`. The
 * JSON is compact (a record's text never holds a raw newline), so every newline ends a record and
 * the text `<8 hex digits> {"op":"` can only be the start of one: the replay finds records again
 * after damaged bytes by that.
 *
 * Version 4 (this one):
 * - `{"op":"header","format":"plant-store-mock-state","version":4,"epoch":E}` first; a compacted file's
 *   header also has `"deleted":{collection: N, …}`, the highest sequence number a deleted key of
 *   each collection was (store.ts, `highestDeleted`), which the delete lines it drops said (a
 *   reader that does not know the member ignores it);
 * - `{"op":"create"|"replace","e":E,"c":collection,"key":K,"record":R}`, `{"op":"delete","e":E,"c":…,"key":K}`;
 * - a seed of n records as n lines `{"op":"seed","e":E,"c":…,"i":0…n-1,"n":n,"key":K,"record":R}`, so a
 *   damaged byte costs one seeded record, not the seed;
 * - `{"op":"reset","e":E}`, where E is the new epoch;
 * - `{"op":"clear","e":E,"c":collection}`: forgets the collection's records and those of every
 *   collection named `collection/<key>/…` (store.ts, `clear`), keeping their highest deleted numbers;
 *   `"k":[template, …]` when the clear kept collections fitting the spec's own paths below it
 *   (`/bookings/settings/display`), so the replay keeps them too without the spec. A mock that
 *   does not know the member forgets those as well: what it would have done itself.
 * `e` is the number of resets before the record (the epoch). A record whose epoch is past the
 * replay's shows that a reset was lost in damaged bytes, so the records it wiped stay wiped.
 *
 * Version 3 was this without the clear line. A mock that reads version 3 only would take a clear
 * line for damage and keep the records it cleared, so the version is 4: such a mock refuses the
 * file instead of misreading it. A version 3 file is read as 4 (it holds no clear line) and its
 * header rewritten before anything is appended.
 * Version 2 had no epochs and wrote a seed as one line `{"op":"seed","c":…,"records":[{"key","record"}…]}`;
 * version 1 kept plants only: `{"op":"create","id":…,"name":…,"tag":…}`, `{"op":"seed","plants":[…]}`.
 * Both are read and rewritten as 4.
 */
import { crc32 } from 'node:zlib';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import type { RecordKey, StoredRecord } from './store.js';

export const STATE_FILE_FORMAT = 'plant-store-mock-state';
export const STATE_FILE_VERSION = 4;
/** The versions this mock reads (older ones are rewritten in the current one at start). */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4];

export function headerLine(epoch: number, deleted: ReadonlyMap<string, number> = new Map()): string {
  let numbers = '';
  for (const [collection, number] of deleted) numbers += `${numbers ? ',' : ''}${JSON.stringify(collection)}:${number}`;
  return recordLine(`{"op":"header","format":"${STATE_FILE_FORMAT}","version":${STATE_FILE_VERSION},"epoch":${epoch}${numbers ? `,"deleted":{${numbers}}` : ''}}`);
}

export function createLine(epoch: number, collection: string, record: StoredRecord): string {
  return recordLine(`{"op":"create","e":${epoch},"c":${JSON.stringify(collection)},"key":${JSON.stringify(record.key)},"record":${record.json}}`);
}

export function replaceLine(epoch: number, collection: string, record: StoredRecord): string {
  return recordLine(`{"op":"replace","e":${epoch},"c":${JSON.stringify(collection)},"key":${JSON.stringify(record.key)},"record":${record.json}}`);
}

export function deleteLine(epoch: number, collection: string, key: RecordKey): string {
  return recordLine(`{"op":"delete","e":${epoch},"c":${JSON.stringify(collection)},"key":${JSON.stringify(key)}}`);
}

/** A seed: one line per record, numbered, so the replay applies it whole or knows what it lost. */
export function seedLines(epoch: number, collection: string, records: readonly StoredRecord[]): string {
  const prefix = `{"op":"seed","e":${epoch},"c":${JSON.stringify(collection)},"n":${records.length},"i":`;
  let lines = '';
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as StoredRecord;
    lines += recordLine(`${prefix}${i},"key":${JSON.stringify(record.key)},"record":${record.json}}`);
  }
  return lines;
}

/** A clear of `collection` and the collections nested under it, but those fitting a template of `keep`. */
export function clearLine(epoch: number, collection: string, keep: readonly string[] = []): string {
  return recordLine(`{"op":"clear","e":${epoch},"c":${JSON.stringify(collection)}${keep.length ? `,"k":${JSON.stringify(keep)}` : ''}}`);
}

/** A reset, starting epoch `epoch`. */
export function resetLine(epoch: number): string {
  return recordLine(`{"op":"reset","e":${epoch}}`);
}

export function recordLine(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The JSON object of one checksummed record in `content[start, end)` (no newline), or why it is not one. */
export function readRecord(content: Buffer, start: number, end: number): Record<string, unknown> | string {
  if (end - start < 10 || content[start + 8] !== 0x20 || !isHex8(content, start)) return 'not a checksummed record';
  const json = content.subarray(start + 9, end);
  if (crc32(json) !== Number.parseInt(content.toString('latin1', start, start + 8), 16)) return 'checksum mismatch';
  let value: unknown;
  try {
    value = parseExactJson(json.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : 'not a record';
}

const RECORD_OPENING = Buffer.from('{"op":"');

/**
 * Where records may start inside `content[start, end)`, a line that failed: its own start and every
 * `<8 hex> {"op":"` in it (a newline damaged into another byte joins two records in one line).
 */
export function recordStartsIn(content: Buffer, start: number, end: number): number[] {
  const starts = [start];
  const line = content.subarray(start, end);
  for (let at = line.indexOf(RECORD_OPENING, 10); at !== -1; at = line.indexOf(RECORD_OPENING, at + 1)) {
    if (line[at - 1] === 0x20 && isHex8(line, at - 9)) starts.push(start + at - 9);
  }
  return starts;
}

/** Whether a record (or what is left of one) starts with its op: how damaged records are counted. */
export function looksLikeRecord(content: Buffer, start: number, end: number): boolean {
  return content.subarray(start, Math.min(end, start + 9 + RECORD_OPENING.length)).includes(RECORD_OPENING);
}

function isHex8(content: Buffer, start: number): boolean {
  for (let i = start; i < start + 8; i++) {
    const byte = content[i] as number;
    if (!((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66))) return false;
  }
  return true;
}
