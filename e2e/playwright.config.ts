import { defineConfig } from '@playwright/test';
import { BUSINESS_TIME_ZONE } from './support/time-zone.js';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the
 * real API and web app, started by support/global-setup.ts on a fresh
 * embedded PostgreSQL with the demo data.
 */
export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  outputDir: './test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1366, height: 850 },
    // The staff of a business are in its time zone: their browser's today is the API's business day. (In UTC the
    // two disagree from 21:00 to midnight, and the pages' default periods ended a day before the API's data.)
    timezoneId: BUSINESS_TIME_ZONE,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
