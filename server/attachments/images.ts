import sharp from 'sharp';
import { AppError, badRequest } from '../errors.js';
import { BoundedQueue, type Place, QueueBusyError } from './decode-queue.js';
import type { AcceptedType } from './file-type.js';

/**
 * A photo's size as a phone camera makes it (12 to 24 megapixels; 4:3 at
 * 24 MP is 5712 × 4284), read from the file's header before anything is
 * decoded: a small file of a huge image (a decompression bomb) costs seconds
 * of decoding, so it is refused from its header alone.
 */
export const MAX_INPUT_PIXELS = 26_000_000;
export const MAX_INPUT_SIDE = 8192;
/**
 * Photos are decoded one at a time, and each decode uses one thread: sharp's
 * work runs on the same thread pool as password hashing, and a few decodes at
 * once would starve sign-in. A few more wait; beyond them an upload is asked
 * to come back shortly (503), and readiness reports the instance as full.
 */
export const IMAGE_DECODE_CONCURRENCY = 1;
export const IMAGE_DECODE_WAITING = 8;
export const IMAGE_BUSY_RETRY_AFTER_SECONDS = 5;
export const imageDecodes = new BoundedQueue(IMAGE_DECODE_CONCURRENCY, IMAGE_DECODE_WAITING);
sharp.concurrency(1);
/** The stored image's longest side: more than any phone screen needs, far less than a camera's. */
export const MAX_SIDE = 2560;
export const THUMBNAIL_SIDE = 320;
const DECODE_TIMEOUT_SECONDS = 30;

export type ImageType = Exclude<AcceptedType, 'application/pdf'>;
export type ReencodedImage = { bytes: Uint8Array; thumbnail: Uint8Array; width: number; height: number };

const LABEL: Record<ImageType, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

const megapixels = (pixels: number) => `${Math.round(pixels / 1_000_000)} megapixels`;

function tooLarge(size?: { width: number; height: number }): AppError {
  const message =
    `The photo is too large${size ? ` (${size.width} × ${size.height} pixels)` : ''}: at most ${megapixels(MAX_INPUT_PIXELS)}, and ` +
    `${MAX_INPUT_SIDE.toLocaleString('en')} pixels a side, are accepted. Send it at a smaller size, or take a screenshot of it.`;
  return badRequest(message, { file: [message] });
}

function unreadable(type: ImageType): AppError {
  const text = `The file starts like a ${LABEL[type]} image but could not be read as one (it may be damaged). Please choose another photo.`;
  return badRequest(text, { file: [text] });
}

/** Reads only the image's header: its size is known before a single pixel is decoded. */
export async function checkImageSize(input: Uint8Array, type: ImageType): Promise<{ width: number; height: number }> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(input, { animated: false }).metadata());
  } catch {
    throw unreadable(type);
  }
  if (!width || !height) throw unreadable(type);
  if (width * height > MAX_INPUT_PIXELS || width > MAX_INPUT_SIDE || height > MAX_INPUT_SIDE) throw tooLarge({ width, height });
  return { width, height };
}

/** A place in the line of photos to decode, or a 503 asking to come back shortly when the line is full. */
export function takeDecodePlace(): Place {
  try {
    return imageDecodes.take();
  } catch (err) {
    if (!(err instanceof QueueBusyError)) throw err;
    throw new AppError('SERVICE_UNAVAILABLE', 'Many photos are being processed right now. Please send yours again in a few seconds.', {
      retryAfterSeconds: IMAGE_BUSY_RETRY_AFTER_SECONDS,
    });
  }
}

/**
 * Decodes the upload and encodes a new image of the same type from its
 * pixels: turned upright as its EXIF orientation says, and nothing else of
 * the original carried over (sharp writes no EXIF, GPS, XMP, ICC or comments
 * unless asked, and we never ask). Only the first frame of an animation is kept.
 */
export async function reencodeImage(input: Uint8Array, type: ImageType, place: Place): Promise<ReencodedImage> {
  try {
    await place.turn;
    return await reencode(input, type);
  } finally {
    place.leave();
  }
}

async function reencode(input: Uint8Array, type: ImageType): Promise<ReencodedImage> {
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
    if (/pixel limit/i.test(message)) throw tooLarge();
    throw unreadable(type);
  }
}
