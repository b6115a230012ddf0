import { z } from 'zod';
import { envDocs, iceServers } from './fields.js';

/** Outside services: S3-compatible file storage, STUN/TURN for calls, Razorpay for online payments. */
export const integrationVars = {
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'must be an http:// or https:// URL such as http://minio:9000')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'http://minio:9000',
      description:
        "The store's address for MinIO and other S3-compatible servers (`http://minio:9000`); unset for AWS S3. Path-style requests.",
    }),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'poshan-files',
      description:
        'Unset → uploaded files are kept in `DATA_DIR/files` (one instance only). Set → they go to this bucket of an S3-compatible store (required for more than one instance; see [Operating](operating.md#files-attachments)).',
    }),
  S3_REGION: z
    .string()
    .min(1)
    .default('us-east-1')
    .register(envDocs, { default: '`us-east-1`', example: 'us-east-1', description: "The bucket's region (MinIO accepts any)." }),
  S3_ACCESS_KEY_ID: z.string().min(1).optional().register(envDocs, {
    default: 'unset',
    example: '',
    description: "The store's access key, with `S3_SECRET_ACCESS_KEY` (both or neither; neither → the AWS SDK's own credential chain).",
  }),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .optional()
    .register(envDocs, { default: 'unset', example: '', description: "The store's secret key, with `S3_ACCESS_KEY_ID`." }),
  ICE_SERVERS: iceServers.register(envDocs, {
    default: 'unset',
    example: 'stun:turn.example.org:3478,turn:turn.example.org:3478?transport=udp',
    description:
      'STUN/TURN servers for calls: a comma list of `stun:`/`turn:` URLs, or a JSON array of `{ urls, username?, credential? }`. Unset → calls connect directly only.',
  }),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters (the static-auth-secret of coturn)').optional().register(envDocs, {
    default: 'unset',
    example: '',
    description:
      "coturn's `static-auth-secret` (at least 16 characters): TURN servers in `ICE_SERVERS` without fixed credentials get short-lived ones made from it per person and call.",
  }),
  RAZORPAY_KEY_ID: z
    .string()
    .regex(/^rzp_(test|live)_\w+$/, 'must be a Razorpay key id such as rzp_live_AbCd1234')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'rzp_live_...',
      description:
        'Razorpay, all three `RAZORPAY_KEY_*`/`RAZORPAY_WEBHOOK_SECRET` or none. Set → each new invoice gets a Razorpay payment link ("Pay online") and `POST /api/webhooks/razorpay` marks invoices paid; unset → UPI claims only and the webhook answers 404.',
    }),
  RAZORPAY_KEY_SECRET: z
    .string()
    .min(8, 'must be the key secret from the Razorpay dashboard')
    .optional()
    .register(envDocs, { default: 'unset', example: '', description: 'The key secret from the Razorpay dashboard.' }),
  RAZORPAY_WEBHOOK_SECRET: z
    .string()
    .min(8, 'must be at least 8 characters (the secret set on the webhook in Razorpay)')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: '',
      description: 'The secret set on the webhook in Razorpay (event `payment_link.paid`).',
    }),
  RAZORPAY_API_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http:// or https:// URL such as https://api.razorpay.com/v1')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://api.razorpay.com/v1')
    .register(envDocs, {
      default: '`https://api.razorpay.com/v1`',
      example: 'https://api.razorpay.com/v1',
      description: "Razorpay's API address (tests point it at a server they start).",
    }),
};
