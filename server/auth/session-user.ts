import { hash } from 'node:crypto';
import type { Role } from './roles.js';

/**
 * Who a live session belongs to, and how a token is stored. A leaf module: the
 * session modules (session, session-cache, sessions-repo, live-sessions) all
 * read it and it reads none of them, so they import each other in one
 * direction only (server/import-cycles.test.ts keeps it so).
 */
export type SessionUser = {
  id: number;
  role: Role;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  sessionId: number;
  /** When the session token stops working: a cached session is refused from this moment on. */
  expiresAt: Date;
};

/** Tokens are random and high-entropy, so a fast hash is enough to store them safely. */
export const hashToken = (token: string) => hash('sha256', token, 'base64url');

export const fullNameOf = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();
