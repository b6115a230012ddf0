import type { Config } from '../env.js';

/**
 * This server's address as people reach it, for links in mails, pushes and
 * calendar files: PUBLIC_URL, else the address it listens on. Never the
 * request's Host header, which a caller controls (a forged Host would mail
 * the victim a link to the attacker's site carrying a real token).
 */
export function publicBaseUrl(deps: { config: Pick<Config, 'publicUrl' | 'host' | 'port'> }): string {
  const { publicUrl, host, port } = deps.config;
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${shownHost}:${port}`;
}
