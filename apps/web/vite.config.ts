import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    // @kidogo/contracts exports its TS source under this condition, so the
    // web app compiles the shared schemas without a separate build step.
    conditions: ['@kidogo/source'],
    alias: { '@': decodeURIComponent(new URL('./src', import.meta.url).pathname) },
  },
  server: {
    proxy: { '/payg': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  preview: {
    proxy: { '/payg': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/initial-js.mjs reads it to measure what each entry route downloads.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Form tests type and click a lot; on a busy 2-core CI machine 5 s is not enough.
    testTimeout: 20_000,
  },
});
