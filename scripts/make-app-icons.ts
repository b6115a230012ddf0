/**
 * Regenerates the installed app's icons in public/icons/ from the logo, public/favicon.svg (run after
 * changing the logo): npx tsx scripts/make-app-icons.ts
 * - icon-192.png, icon-512.png: the logo as it is (rounded square), purpose "any";
 * - maskable-192.png, maskable-512.png: the logo's mark on a full-bleed brand square, kept inside the
 *   central 60 % so any mask (circle, squircle) the launcher applies leaves it whole (purpose "maskable");
 * - apple-touch-icon.png (180 px): iOS rounds the corners itself, so the full-bleed square too.
 * The PNGs are committed; the manifest (vite.config.ts) names them.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

const logo = readFileSync('public/favicon.svg', 'utf8');
// The mark: everything in the logo but its title and its background square.
const mark = logo
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '')
  .replace(/<title>.*?<\/title>/, '')
  .replace(/<rect[^>]*\/>/, '');
const background = /<rect[^>]*fill="([^"]+)"/.exec(logo)?.[1];
if (!background || !mark.includes('<path'))
  throw new Error('public/favicon.svg: expected a background <rect fill> and the mark as <path>s');

/** The mark (drawn on 64×64, its own box roughly 20..44) scaled into the middle `share` of a full-bleed square. */
function fullBleed(share: number) {
  const scale = share;
  const offset = (64 - 64 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${background}"/><g transform="translate(${offset} ${offset}) scale(${scale})">${mark}</g></svg>`;
}

const render = (svg: string, size: number, file: string) =>
  sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(`public/icons/${file}`);

await Promise.all([
  render(logo, 192, 'icon-192.png'),
  render(logo, 512, 'icon-512.png'),
  render(fullBleed(1.1), 192, 'maskable-192.png'),
  render(fullBleed(1.1), 512, 'maskable-512.png'),
  render(fullBleed(1.2), 180, 'apple-touch-icon.png'),
]);
console.info('public/icons: icon-192, icon-512, maskable-192, maskable-512, apple-touch-icon');
