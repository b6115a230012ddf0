import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { type PageHead, prerenderedHead } from './lib/use-document-title';

/**
 * Build-time rendering of one public page (scripts/build/prerender.ts): the
 * same tree main.tsx hydrates, at `url`, with every lazy page resolved.
 */
// tRPC's WebSocket client wants a WebSocket class when it is created (Node 20 has none). Its socket
// is lazy and nothing subscribes while a page is prerendered, so a class that refuses to connect will do.
globalThis.WebSocket ??= class {
  constructor() {
    throw new Error('No WebSocket while prerendering.');
  }
} as unknown as typeof WebSocket;
/** A prerendered page is what a first-time visitor sees: signed out, with empty storage. */
class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
}
globalThis.localStorage ??= new MemoryStorage();
globalThis.sessionStorage ??= new MemoryStorage();
const { App } = await import('./app/App');

export async function renderPage(url: string): Promise<{ html: string; head: PageHead | null }> {
  prerenderedHead.current = null;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Router ssrPath={url}>
        <App />
      </Router>
    </StrictMode>,
    // One piece: React would otherwise move large boundaries into inline scripts, which the CSP forbids.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = '';
  for await (const chunk of prelude) html += chunk;
  return { html, head: prerenderedHead.current };
}
