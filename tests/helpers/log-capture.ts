import type { DestinationStream } from 'pino';

export type LogLine = Record<string, unknown> & { level: string; msg: string };

/** A pino destination that keeps every line, raw and parsed, for assertions on real log output. */
export function captureLogs() {
  const raw: string[] = [];
  const destination: DestinationStream = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim()) raw.push(line);
    },
  };
  return {
    destination,
    raw,
    get text() {
      return raw.join('\n');
    },
    lines(): LogLine[] {
      return raw.map((l) => JSON.parse(l) as LogLine);
    },
    clear() {
      raw.length = 0;
    },
  };
}
