/**
 * Writes src/styles/fonts/inter-text-wght.woff2: Inter's variable Latin file (from the pinned
 * @fontsource-variable/inter) cut down to the characters the site's text uses (TEXT_RANGE), every
 * weight kept. It is the font every page preloads (decision 062): 29 KB instead of 48 KB. Run it
 * again after upgrading the font package or widening TEXT_RANGE (keep src/styles/fonts.css in step):
 *   npx tsx scripts/fonts/subset-inter.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import subsetFont from 'subset-font';

/** The preloaded face's characters, as in its unicode-range in src/styles/fonts.css. */
export const TEXT_RANGE: [number, number][] = [
  [0x20, 0x7e], // ASCII
  [0xa0, 0xa0], // no-break space
  [0xa9, 0xa9], // ©
  [0xb7, 0xb7], // ·
  [0xd7, 0xd7], // ×
  [0x2013, 0x2014], // – —
  [0x2018, 0x2019], // ‘ ’
  [0x201c, 0x201d], // “ ”
  [0x2022, 0x2022], // •
  [0x2026, 0x2026], // …
];

const require = createRequire(import.meta.url);
const source = require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const text = TEXT_RANGE.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))).join('');
const out = await subsetFont(readFileSync(source), text, { targetFormat: 'woff2' });
const target = path.resolve(import.meta.dirname, '../../src/styles/fonts/inter-text-wght.woff2');
writeFileSync(target, out);
console.info(`${path.relative(process.cwd(), target)}: ${out.length} bytes (from ${readFileSync(source).length})`);
