import { z } from 'zod';

/** An attachment as every reader sees it (the messages, meals and documents that carry it too). */
export const attachmentView = z.object({
  id: z.uuid().describe('The attachment’s id, to pass in attachmentIds when sending a message'),
  name: z.string().describe('The file name it was uploaded with'),
  contentType: z.enum(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']).describe('The type decided from the file’s bytes'),
  size: z.number().int().describe('Bytes stored (a photo is re-encoded, so this may differ from what was sent)'),
  url: z.string().describe('A signed link to the file, valid about 15 minutes, that an <img src> or a download can open without a token'),
  thumbnailUrl: z.string().nullable().describe('A signed link to a small WebP preview (photos only; null for a PDF)'),
});

export const attachmentIdParams = z.object({ id: z.string().describe('The attachment’s id (a UUID)') });

export const signedLinkQuery = z.object({
  exp: z.string().optional().describe('From a signed link (`url` or `thumbnailUrl`): when it expires, in seconds since 1970'),
  sig: z.string().optional().describe('From a signed link: its signature'),
});
