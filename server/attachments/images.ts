import sharp from 'sharp';
import { badRequest } from '../errors.js';
import type { AcceptedType } from './file-type.js';

/** A decompression bomb (a small file of a huge image) is refused before it is decoded: at most 50 megapixels. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** The stored image's longest side: more than any phone screen needs, far less than a camera's. */
export const MAX_SIDE = 2560;
export const THUMBNAIL_SIDE = 320;
const DECODE_TIMEOUT_SECONDS = 30;

export type ImageType = Exclude<AcceptedType, 'application/pdf'>;
export type ReencodedImage = { bytes: Uint8Array; thumbnail: Uint8Array; width: number; height: number };

const LABEL: Record<ImageType, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

/**
 * Decodes the upload and encodes a new image of the same type from its
 * pixels: turned upright as its EXIF orientation says, and nothing else of
 * the original carried over (sharp writes no EXIF, GPS, XMP, ICC or comments
 * unless asked, and we never ask). Only the first frame of an animation is kept.
 */
export async function reencodeImage(input: Uint8Array, type: ImageType): Promise<ReencodedImage> {
  const decode = () =>
    sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .rotate();
  try {
    const upright = decode().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    const encoded =
      type === 'image/jpeg'
        ? upright.jpeg({ quality: 85, mozjpeg: true })
        : type === 'image/png'
          ? upright.png({ compressionLevel: 9 })
          : upright.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { bytes: new Uint8Array(data), thumbnail: new Uint8Array(thumbnail), width: info.width, height: info.height };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) {
      throw badRequest(`The image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted.`, {
        file: [`The image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`],
      });
    }
    const text = `The file starts like a ${LABEL[type]} image but could not be read as one (it may be damaged). Please choose another photo.`;
    throw badRequest(text, { file: [text] });
  }
}
