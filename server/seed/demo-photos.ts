import sharp from 'sharp';
import { THUMBNAIL_SIDE } from '../attachments/images.js';

/**
 * Meal photos for the demo, drawn here (nothing copied): flat SVG
 * illustrations of Indian dishes, seen from above on a wooden table, with
 * grains and specks from a seeded random sequence so every run draws the same
 * pictures. Each is rendered once to a phone-sized JPEG and a WebP thumbnail,
 * the two files an upload of a photo leaves in storage.
 */

export const DEMO_DISHES = ['thali', 'poha', 'fruit', 'idli', 'bhurji', 'khichdi', 'chilla', 'chai'] as const;
export type DemoDish = (typeof DEMO_DISHES)[number];

export type DemoPhoto = { dish: DemoDish; jpeg: Uint8Array; thumbnail: Uint8Array };

/** The side of a demo photo: about what a phone's chat or journal upload keeps after re-encoding. */
const SIDE = 960;

/** A small seeded generator (mulberry32): the same seed draws the same picture. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

/** `count` small shapes scattered in a circle: grains of rice, poha flakes, seeds, herbs. */
function scatter(
  rand: Rand,
  opts: { cx: number; cy: number; radius: number; count: number; colors: readonly string[]; rx: number; ry: number },
): string {
  let out = '';
  for (let i = 0; i < opts.count; i++) {
    const angle = rand() * Math.PI * 2;
    const dist = Math.sqrt(rand()) * opts.radius;
    const x = r1(opts.cx + Math.cos(angle) * dist);
    const y = r1(opts.cy + Math.sin(angle) * dist);
    const turn = Math.round(rand() * 180);
    out += `<ellipse cx="${x}" cy="${y}" rx="${opts.rx}" ry="${opts.ry}" fill="${pick(rand, opts.colors)}" transform="rotate(${turn} ${x} ${y})"/>`;
  }
  return out;
}

const table = (rand: Rand) => {
  let planks = '<rect width="960" height="960" fill="#8a5a36"/>';
  for (let y = 0; y < 960; y += 160) {
    planks += `<rect y="${y}" width="960" height="156" fill="${pick(rand, ['#93613b', '#875733', '#9a6841'])}"/>`;
    for (let i = 0; i < 7; i++) {
      const gy = y + 12 + rand() * 132;
      planks += `<path d="M0 ${r1(gy)} Q 480 ${r1(gy + (rand() - 0.5) * 30)} 960 ${r1(gy + (rand() - 0.5) * 16)}" stroke="#7a4c2b" stroke-opacity="0.35" stroke-width="${r1(1 + rand() * 3)}" fill="none"/>`;
    }
  }
  return planks;
};

/** A steel plate (thali) or bowl rim, seen from above. */
const steel = (cx: number, cy: number, r: number) =>
  `<circle cx="${cx}" cy="${cy + 10}" r="${r}" fill="#000" fill-opacity="0.25"/>` +
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#steel)"/>` +
  `<circle cx="${cx}" cy="${cy}" r="${r - 18}" fill="#cfd4d8" stroke="#aeb4b9" stroke-width="3"/>`;

/** A katori (small steel bowl) holding something. */
const katori = (cx: number, cy: number, r: number, fill: string, extra = '') =>
  `<circle cx="${cx}" cy="${cy + 6}" r="${r + 4}" fill="#000" fill-opacity="0.2"/>` +
  `<circle cx="${cx}" cy="${cy}" r="${r + 4}" fill="url(#steel)"/>` +
  `<circle cx="${cx}" cy="${cy}" r="${r - 6}" fill="${fill}"/>` +
  extra;

const roti = (rand: Rand, cx: number, cy: number, r: number) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#e2b774" stroke="#c99a55" stroke-width="3"/>` +
  scatter(rand, { cx, cy, radius: r - 10, count: 26, colors: ['#a8713a', '#b9823f', '#8c5a2b'], rx: 6, ry: 4 });

function dish(name: DemoDish, rand: Rand): string {
  switch (name) {
    case 'thali':
      return (
        steel(480, 480, 400) +
        roti(rand, 370, 600, 120) +
        roti(rand, 420, 640, 118) +
        `<ellipse cx="600" cy="620" rx="120" ry="95" fill="#fbfaf4"/>` +
        scatter(rand, { cx: 600, cy: 620, radius: 95, count: 160, colors: ['#ffffff', '#efece0', '#f7f3e6'], rx: 9, ry: 3 }) +
        katori(
          330,
          330,
          95,
          '#e7a92c',
          scatter(rand, { cx: 330, cy: 330, radius: 70, count: 30, colors: ['#c98a1b', '#f2c14e'], rx: 5, ry: 4 }),
        ) +
        katori(
          560,
          290,
          95,
          '#5f8f2f',
          scatter(rand, { cx: 560, cy: 290, radius: 75, count: 40, colors: ['#3f6e1e', '#7aa83e', '#a3c45c'], rx: 12, ry: 6 }),
        ) +
        katori(
          720,
          450,
          80,
          '#f4f1e6',
          scatter(rand, { cx: 720, cy: 450, radius: 55, count: 20, colors: ['#9cc06a', '#e05a3a'], rx: 4, ry: 3 }),
        ) +
        `<g>${[0, 1, 2, 3].map((i) => `<circle cx="${250 + i * 40}" cy="${470 + (i % 2) * 30}" r="26" fill="#b6d58c" stroke="#5d8a2c" stroke-width="5"/>`).join('')}</g>` +
        `<path d="M250 420 l40 -20 l30 25 z" fill="#d9352b"/>`
      );
    case 'poha':
      return (
        steel(480, 480, 330) +
        `<circle cx="480" cy="480" r="290" fill="#f0c53c"/>` +
        scatter(rand, { cx: 480, cy: 480, radius: 280, count: 900, colors: ['#f5d35c', '#e9b92a', '#f8e08a', '#dcaa1e'], rx: 11, ry: 5 }) +
        scatter(rand, { cx: 480, cy: 480, radius: 260, count: 60, colors: ['#5cae3c', '#4a9a2f'], rx: 9, ry: 9 }) +
        scatter(rand, { cx: 480, cy: 480, radius: 260, count: 45, colors: ['#b8733a', '#9c5d2b'], rx: 10, ry: 7 }) +
        scatter(rand, { cx: 480, cy: 480, radius: 250, count: 120, colors: ['#2f7d32', '#3f9a3c'], rx: 6, ry: 3 }) +
        `<path d="M690 250 a70 70 0 0 1 90 90 l-90 -90 z" fill="#f5e663" stroke="#c9b630" stroke-width="6"/>`
      );
    case 'fruit':
      return (
        steel(480, 480, 380) +
        Array.from({ length: 14 }, (_, i) => {
          const x = 300 + (i % 4) * 70 + rand() * 20;
          const y = 300 + Math.floor(i / 4) * 70 + rand() * 20;
          return `<rect x="${r1(x)}" y="${r1(y)}" width="56" height="56" rx="10" fill="${pick(rand, ['#f08a2c', '#f39a3e', '#e77b22'])}" transform="rotate(${Math.round(rand() * 40 - 20)} ${r1(x + 28)} ${r1(y + 28)})"/>`;
        }).join('') +
        Array.from({ length: 5 }, (_, i) => {
          const a = (i / 5) * Math.PI + Math.PI * 0.15;
          const x = r1(480 + Math.cos(a) * 200);
          const y = r1(560 + Math.sin(a) * 150);
          return `<ellipse cx="${x}" cy="${y}" rx="70" ry="32" fill="#fbf2d2" stroke="#c8202c" stroke-width="9" transform="rotate(${Math.round((a * 180) / Math.PI)} ${x} ${y})"/>`;
        }).join('') +
        scatter(rand, { cx: 640, cy: 360, radius: 85, count: 140, colors: ['#c2122d', '#e0203f', '#a80d24'], rx: 8, ry: 10 })
      );
    case 'idli':
      return (
        steel(480, 480, 400) +
        [
          [360, 380],
          [530, 360],
          [440, 520],
        ]
          .map(
            ([x, y]) =>
              `<ellipse cx="${x}" cy="${y! + 8}" rx="96" ry="88" fill="#000" fill-opacity="0.12"/><ellipse cx="${x}" cy="${y}" rx="96" ry="88" fill="#fbfbf5"/>` +
              scatter(rand, { cx: x!, cy: y!, radius: 70, count: 40, colors: ['#eeeadb', '#f3f0e4'], rx: 3, ry: 3 }),
          )
          .join('') +
        katori(
          650,
          600,
          110,
          '#c5611f',
          scatter(rand, { cx: 650, cy: 600, radius: 85, count: 50, colors: ['#e08a2e', '#7a3a12', '#f2b34a', '#3d7a2a'], rx: 10, ry: 7 }),
        ) +
        katori(
          330,
          670,
          80,
          '#f2f0e1',
          scatter(rand, { cx: 330, cy: 670, radius: 55, count: 25, colors: ['#3b7d2e', '#101010', '#c9c2a6'], rx: 4, ry: 3 }),
        )
      );
    case 'bhurji':
      return (
        steel(480, 480, 400) +
        `<circle cx="440" cy="470" r="200" fill="#f6d65a"/>` +
        scatter(rand, { cx: 440, cy: 470, radius: 190, count: 260, colors: ['#f8df73', '#e9bd34', '#fbe9a0', '#f1ca47'], rx: 16, ry: 11 }) +
        scatter(rand, { cx: 440, cy: 470, radius: 180, count: 70, colors: ['#d9352b', '#3f8f32', '#a45ad1'], rx: 7, ry: 5 }) +
        [0, 1]
          .map(
            (i) =>
              `<rect x="${600 + i * 40}" y="${250 + i * 170}" width="190" height="180" rx="28" fill="#c98b4a" transform="rotate(${i ? 12 : -8} ${695 + i * 40} ${340 + i * 170})"/>` +
              `<rect x="${616 + i * 40}" y="${266 + i * 170}" width="158" height="148" rx="20" fill="#e9c58c" transform="rotate(${i ? 12 : -8} ${695 + i * 40} ${340 + i * 170})"/>`,
          )
          .join('') +
        scatter(rand, { cx: 300, cy: 700, radius: 70, count: 12, colors: ['#7cb65a', '#e34b3a'], rx: 22, ry: 22 })
      );
    case 'khichdi':
      return (
        steel(480, 480, 340) +
        `<circle cx="480" cy="480" r="300" fill="#e7c25a"/>` +
        scatter(rand, { cx: 480, cy: 480, radius: 290, count: 700, colors: ['#f3d77a', '#d8a93a', '#f9e7a8', '#c9a040'], rx: 8, ry: 4 }) +
        scatter(rand, { cx: 480, cy: 480, radius: 270, count: 60, colors: ['#e07a2a', '#4f9a3a', '#f4f4e6'], rx: 9, ry: 8 }) +
        `<ellipse cx="520" cy="420" rx="60" ry="36" fill="#f7d26a" fill-opacity="0.9"/>` +
        katori(790, 790, 70, '#f5f3ea')
      );
    case 'chilla':
      return (
        steel(480, 480, 400) +
        [0, 1]
          .map((i) => {
            const cx = 400 + i * 130;
            const cy = 430 + i * 90;
            return (
              `<circle cx="${cx}" cy="${cy}" r="190" fill="#e8b04a" stroke="#c98a2c" stroke-width="6"/>` +
              scatter(rand, { cx, cy, radius: 170, count: 120, colors: ['#b86a1c', '#d9962e', '#5e9a35', '#d43d2a'], rx: 8, ry: 5 })
            );
          })
          .join('') +
        katori(
          720,
          270,
          80,
          '#4f9a3a',
          scatter(rand, { cx: 720, cy: 270, radius: 55, count: 30, colors: ['#3d7f2c', '#74b84e'], rx: 5, ry: 4 }),
        )
      );
    case 'chai':
      return (
        `<circle cx="420" cy="470" r="190" fill="#000" fill-opacity="0.2"/>` +
        `<circle cx="410" cy="460" r="190" fill="#f2efe8"/>` +
        `<circle cx="410" cy="460" r="150" fill="#b57a45"/>` +
        `<circle cx="380" cy="430" r="70" fill="#c99262" fill-opacity="0.8"/>` +
        `<path d="M590 420 q90 0 90 60 q0 60 -90 60" stroke="#f2efe8" stroke-width="36" fill="none"/>` +
        steel(700, 760, 170) +
        scatter(rand, { cx: 700, cy: 760, radius: 130, count: 40, colors: ['#f7f2e4', '#efe6cf', '#e6dbc0'], rx: 24, ry: 21 })
      );
  }
}

function svgOf(name: DemoDish, seed: number): string {
  const rand = random(seed);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}" viewBox="0 0 960 960">` +
    '<defs><radialGradient id="steel" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#f4f6f8"/><stop offset="0.6" stop-color="#c3c9ce"/><stop offset="1" stop-color="#8e969d"/></radialGradient>' +
    '<radialGradient id="light" cx="35%" cy="30%" r="80%"><stop offset="0" stop-color="#fff" stop-opacity="0.18"/><stop offset="1" stop-color="#000" stop-opacity="0.22"/></radialGradient></defs>' +
    table(rand) +
    dish(name, rand) +
    '<rect width="960" height="960" fill="url(#light)"/>' +
    '</svg>'
  );
}

/** One picture of a dish: the JPEG as the upload path stores a photo, and its thumbnail. */
export async function renderDemoPhoto(dish: DemoDish, seed = DEMO_DISHES.indexOf(dish) + 1): Promise<DemoPhoto> {
  const jpeg = await sharp(Buffer.from(svgOf(dish, seed)))
    .jpeg({ quality: 82 })
    .toBuffer();
  const thumbnail = await sharp(jpeg)
    .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside' })
    .webp({ quality: 75 })
    .toBuffer();
  return { dish, jpeg: new Uint8Array(jpeg), thumbnail: new Uint8Array(thumbnail) };
}

/** Every demo dish, rendered side by side. */
export async function renderDemoPhotos(): Promise<Map<DemoDish, DemoPhoto>> {
  const photos = await Promise.all(DEMO_DISHES.map((d) => renderDemoPhoto(d)));
  return new Map(photos.map((p) => [p.dish, p]));
}
