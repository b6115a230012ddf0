/**
 * Regenerates public/favicon.ico from public/favicon.svg (run after changing the SVG):
 *   npx tsx scripts/make-favicon.ts
 * Chromium renders the SVG at 16, 32 and 48 px; the ICO holds those PNGs
 * (PNG-in-ICO, which every browser since IE Vista-era understands).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { launchBrowser } from '../tests/helpers/browser.js';

const SIZES = [16, 32, 48];
const svg = readFileSync('public/favicon.svg', 'utf8');
const browser = await launchBrowser();
const pngs: Buffer[] = [];
for (const size of SIZES) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
  );
  pngs.push(await page.screenshot({ omitBackground: true, type: 'png' }));
  await page.close();
}
await browser.close();

// ICONDIR (6 bytes) + one ICONDIRENTRY (16 bytes) per image, then the images.
const header = Buffer.alloc(6 + 16 * pngs.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2); // 1 = icon
header.writeUInt16LE(pngs.length, 4);
let offset = header.length;
pngs.forEach((png, i) => {
  const entry = 6 + 16 * i;
  const size = SIZES[i] ?? 0;
  header.writeUInt8(size % 256, entry); // width (0 would mean 256)
  header.writeUInt8(size % 256, entry + 1);
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(png.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += png.length;
});
writeFileSync('public/favicon.ico', Buffer.concat([header, ...pngs]));
console.info(`public/favicon.ico: ${offset} bytes (${SIZES.join(', ')} px)`);
