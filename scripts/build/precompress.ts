import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Static text the server sends as it is: everything the server rewrites per request (HTML) is compressed on the fly. */
const TEXT_FILES = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|vtt)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else yield p;
  }
}

/**
 * Writes a Brotli (quality 11) and a gzip (level 9) copy beside every static
 * text file of the build that gzip makes smaller; the server sends them with
 * Content-Encoding to browsers that accept them.
 */
export function precompressDir(dir: string): { files: number; bytes: number; br: number; gzip: number } {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for (const file of files(dir)) {
    if (!TEXT_FILES.test(file) || statSync(file).size < MIN_BYTES) continue;
    const body = readFileSync(file);
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    if (gz.byteLength >= body.byteLength) continue;
    writeFileSync(`${file}.gz`, gz);
    writeFileSync(`${file}.br`, br);
    totals.files += 1;
    totals.bytes += body.byteLength;
    totals.br += br.byteLength;
    totals.gzip += gz.byteLength;
  }
  return totals;
}

/** Vite plugin: precompresses the client build once it is written (after the prerender step, when both run). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'poshan:precompress',
    // The client build only (the prerender step runs a server build of its own).
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const t = precompressDir(outDir);
        this.info?.(`precompressed ${t.files} files: ${t.bytes} bytes → ${t.br} br / ${t.gzip} gzip`);
      },
    },
  };
}
