import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Only the transport folders (server/realtime, server/http, server/trpc) know
 * about WebSockets and frames. A domain (everything else under server/) hands
 * the live channel its rules (realtime/live-channel.ts) and never imports
 * `ws`, tRPC's WebSocket adapter, or what builds a frame or a raw message.
 */
const TRANSPORT = new Set(['realtime', 'http', 'trpc']);
const FORBIDDEN = [
  { what: "the 'ws' package", pattern: /from\s+['"]ws['"]|import\(\s*['"]ws['"]\s*\)/ },
  { what: "tRPC's WebSocket adapter", pattern: /['"]@trpc\/server\/adapters\/ws['"]/ },
  { what: 'the frame builders (realtime/frames.ts)', pattern: /realtime\/frames\.js['"]/ },
  { what: "tRPC's output internals (trpc/output.ts)", pattern: /trpc\/output\.js['"]/ },
  {
    what: 'a hand-made WebSocket frame or message',
    pattern: /\b(textFrame|messageHead|messageTail|frameEncoder|FirstMessage|SerializedOnce)\b|0x81\b/,
  },
];

function domainFiles(dir = 'server'): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === 'server' && TRANSPORT.has(entry.name)) continue;
      files.push(...domainFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}

describe('layering: server/<domain>/ stays free of WebSockets and frames', () => {
  const files = domainFiles();

  it('finds the domains (the walk itself works)', () => {
    expect(files).toContain(path.join('server', 'feed', 'events.ts'));
    expect(files.some((f) => f.startsWith(path.join('server', 'realtime')))).toBe(false);
  });

  it.each(FORBIDDEN)('no domain file uses $what', ({ pattern }) => {
    const offenders = files.filter((f) => pattern.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check catches an offender', () => {
    expect(FORBIDDEN.some(({ pattern }) => pattern.test("import type { WebSocket } from 'ws';"))).toBe(true);
    expect(FORBIDDEN.some(({ pattern }) => pattern.test("import { textFrame } from '../realtime/frames.js';"))).toBe(true);
  });
});
