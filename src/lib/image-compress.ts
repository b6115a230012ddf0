/**
 * Makes a photo small before it leaves the phone: a camera's 3–5 MB picture becomes about 1600 px on its
 * long side and about 200 KB (WebP, else JPEG), turned the way the camera held it. On slow mobile data
 * this is the difference between a minute behind a spinner and a few seconds. The server still checks and
 * re-encodes whatever arrives; this only spares the upload.
 *
 * Decoding uses createImageBitmap (off the main thread where the browser can) and draws on an
 * OffscreenCanvas, or on a canvas element where there is none. A file the browser cannot decode (HEIC on
 * most browsers, a PDF, a broken file) is returned unchanged for the server to judge.
 */

/** The long side of a sent photo: enough to read a plate or a label, far below a camera's 4000 px. */
export const PHOTO_MAX_SIDE = 1600;
/** What a sent photo aims at; qualities step down until it fits. */
export const PHOTO_TARGET_BYTES = 220 * 1024;
const QUALITIES = [0.82, 0.72, 0.62, 0.52] as const;
const COMPRESSIBLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

type Drawable = ImageBitmap | HTMLImageElement;
type Surface = {
  width: number;
  height: number;
  draw: (image: Drawable, background: string | null) => void;
  encode: (type: string, quality: number) => Promise<Blob | null>;
};

function surface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (ctx) {
      return {
        width,
        height,
        draw: (image, background) => paint(ctx, image, width, height, background),
        encode: (type, quality) => canvas.convertToBlob({ type, quality }).catch(() => null),
      };
    }
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  return {
    width,
    height,
    draw: (image, background) => paint(ctx, image, width, height, background),
    encode: (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)),
  };
}

function paint(
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  image: Drawable,
  width: number,
  height: number,
  background: string | null,
) {
  ctx.clearRect(0, 0, width, height);
  // JPEG has no transparency: a transparent PNG would otherwise turn black.
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, width, height);
  }
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, 0, 0, width, height);
}

/** The photo decoded and turned upright (EXIF orientation applied), or null when the browser cannot read it. */
async function decode(file: Blob): Promise<Drawable | null> {
  if (typeof createImageBitmap === 'function') {
    try {
      return await createImageBitmap(file, { imageOrientation: 'from-image' });
    } catch {
      // Older engines refuse the options object; try once without it (they apply orientation by default).
      try {
        return await createImageBitmap(file);
      } catch {
        // Fall through to an image element.
      }
    }
  }
  if (typeof document === 'undefined' || typeof FileReader === 'undefined') return null;
  // The page's CSP allows data: images but not blob: ones.
  const url = await new Promise<string | null>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(file);
  });
  if (!url) return null;
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = url;
  });
}

const sizeOf = (image: Drawable) =>
  'naturalWidth' in image ? { width: image.naturalWidth, height: image.naturalHeight } : { width: image.width, height: image.height };

/** The file's name with the extension of its new type. */
export function renamed(name: string, type: string): string {
  const ext = type === 'image/webp' ? 'webp' : 'jpg';
  const base = name.replace(/\.[^./\\]{1,5}$/, '') || 'photo';
  return `${base}.${ext}`;
}

/**
 * A smaller copy of a photo to upload, or the file itself when it is not a photo the browser can read,
 * or when the copy would not be smaller (a photo already small).
 */
export async function compressImage(file: File, options: { maxSide?: number; targetBytes?: number } = {}): Promise<File> {
  const maxSide = options.maxSide ?? PHOTO_MAX_SIDE;
  const target = options.targetBytes ?? PHOTO_TARGET_BYTES;
  if (!COMPRESSIBLE.has(file.type)) return file;
  const image = await decode(file);
  if (!image) return file;
  try {
    const { width, height } = sizeOf(image);
    if (!width || !height) return file;
    if (file.size <= target && Math.max(width, height) <= maxSide) return file;
    let scale = Math.min(1, maxSide / Math.max(width, height));
    let best: Blob | null = null;
    // Smaller steps until the copy fits; a very detailed photo also loses some size after the qualities run out.
    for (let round = 0; round < 3; round++) {
      const canvas = surface(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
      let type = 'image/webp';
      canvas.draw(image, null);
      for (const quality of QUALITIES) {
        let blob = await canvas.encode(type, quality);
        // A browser without a WebP encoder hands back PNG: JPEG instead, on white.
        if (blob && blob.type !== 'image/webp' && type === 'image/webp') {
          type = 'image/jpeg';
          canvas.draw(image, '#ffffff');
          blob = await canvas.encode(type, quality);
        }
        if (!blob || (blob.type !== 'image/webp' && blob.type !== 'image/jpeg')) break;
        if (!best || blob.size < best.size) best = blob;
        if (blob.size <= target) break;
      }
      if (best && best.size <= target) break;
      scale *= 0.75;
    }
    if (!best || best.size >= file.size) return file;
    return new File([best], renamed(file.name, best.type), { type: best.type, lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    if ('close' in image) image.close();
  }
}
