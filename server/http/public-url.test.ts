import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env.js';
import { publicBaseUrl } from './public-url.js';

const base = (env: Record<string, string>) => publicBaseUrl({ config: loadConfig({ NODE_ENV: 'test', ...env }) });

describe('publicBaseUrl (where reset links point)', () => {
  it('uses PUBLIC_URL without a trailing slash', () => {
    expect(base({ PUBLIC_URL: 'https://poshan.example/' })).toBe('https://poshan.example');
  });

  it('falls back to the configured address, never a request header', () => {
    expect(base({ HOST: '127.0.0.1', PORT: '4000' })).toBe('http://127.0.0.1:4000');
    expect(base({ HOST: '0.0.0.0', PORT: '3000' })).toBe('http://127.0.0.1:3000');
    expect(base({ HOST: '::1', PORT: '3000' })).toBe('http://[::1]:3000');
  });
});
