import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_DISHES, renderDemoPhoto, renderDemoPhotos } from './demo-photos.js';

describe('demo photos', () => {
  it('renders every dish as a phone-sized JPEG of tens of kilobytes, with a WebP thumbnail', async () => {
    const photos = await renderDemoPhotos();
    expect([...photos.keys()]).toEqual([...DEMO_DISHES]);
    for (const photo of photos.values()) {
      const meta = await sharp(photo.jpeg).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 960, 960]);
      expect(photo.jpeg.length).toBeGreaterThan(25_000);
      expect(photo.jpeg.length).toBeLessThan(100_000);
      const thumb = await sharp(photo.thumbnail).metadata();
      expect([thumb.format, thumb.width]).toEqual(['webp', 320]);
    }
  });

  it('draws the same picture on every run', async () => {
    const [a, b] = await Promise.all([renderDemoPhoto('chai'), renderDemoPhoto('chai')]);
    expect(Buffer.from(a.jpeg).equals(Buffer.from(b.jpeg))).toBe(true);
  });
});
