/** Limits of attachments, in a module of their own so the body limit and the client's forms can import them without sharp. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENT_MB = MAX_ATTACHMENT_BYTES / (1024 * 1024);
/** POST /api/attachments: one file (multipart/form-data) and room for the form around it. */
export const ATTACHMENT_BODY_LIMIT = MAX_ATTACHMENT_BYTES + 64 * 1024;
/** Files one message, meal or document may carry. */
export const MAX_ATTACHMENTS_PER_ITEM = 5;
/** An upload not used within this long is deleted with its files (server/attachments/cleanup.ts). */
export const UNCLAIMED_LIFETIME_MS = 24 * 60 * 60_000;
/** The upload path, whose body may hold one file and the form around it (server/http/body-limit.ts). */
export const UPLOAD_PATH = '/api/attachments';
