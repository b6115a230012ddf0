import { defineConfig } from 'vitest/config';

/**
 * Five projects:
 * - unit: pure functions beside the code (server/**, src/**), answering in seconds;
 * - slow: pure too, but seconds a test: PDF rendering (server/pdf/**) and the demo's drawn photos;
 * - contracts: the framework internals the code relies on, and the layering rules (tests/contracts);
 * - integration: the real HTTP/WebSocket server over a real database (tests/integration);
 * - browser: Playwright driving Debian's Chromium against a built client (tests/browser).
 * An unexpected console.error fails a test (tests/helpers/setup.ts).
 */
export default defineConfig({
  test: {
    setupFiles: ['tests/helpers/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
          exclude: ['server/pdf/**', 'server/seed/demo-photos.test.ts'],
          environment: 'node',
        },
      },
      {
        // Pure, but seconds each: PDFKit lays out and embeds fonts for every document, the demo draws its photos.
        extends: true,
        test: {
          name: 'slow',
          include: ['server/pdf/**/*.test.ts', 'server/seed/demo-photos.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: { name: 'contracts', include: ['tests/contracts/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          // Every REST call is checked against the OpenAPI document after its file.
          setupFiles: ['tests/helpers/api-conformance-setup.ts'],
          // One migrated database for the run; each file starts from a copy of it.
          globalSetup: ['tests/helpers/template-db.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/helpers/build-client.ts', 'tests/helpers/template-db.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
