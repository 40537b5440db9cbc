import { existsSync, readFileSync } from 'node:fs';

/** One message a `file:` sink (or route) appended: a JSON line with at least its kind and content. */
export interface FileSinkMessage {
  readonly kind: string;
  readonly content: string;
}

/** The messages a `file:PATH` sink wrote, in order (none yet: no file). */
export function fileSinkMessages(path: string): FileSinkMessage[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8').trimEnd();
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as FileSinkMessage);
}
