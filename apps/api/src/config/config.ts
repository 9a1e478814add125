import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../common/calendar.js';

/** Repository root (apps/api/{src,dist}/config → ../../../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** What a trust-proxy list may hold (proxy-addr, as the HTTP layer reads it): an address, a subnet, or loopback / linklocal / uniquelocal. */
function isProxyAddress(p: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(p)) return true;
  const [address, bits, extra] = p.split('/');
  if (extra !== undefined || !isIP(address ?? '')) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address!) === 4 ? 32 : 128));
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_READ_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  API_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54320),
  DATA_DIR: z.string().default(resolve(REPO_ROOT, '.data')),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  // Short-lived: a stolen access token is good for minutes; the web client refreshes on a 401.
  JWT_EXPIRES_IN: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  PAYG_ADMIN_USERNAME: z.string().min(1).optional(),
  PAYG_ADMIN_PASSWORD: z.string().min(8, 'PAYG_ADMIN_PASSWORD must be at least 8 characters').optional(),
  PAYG_ADMIN_EMAIL: z.string().email().optional(),
  PAYG_ADMIN_ORG: z.string().regex(/^[a-z0-9][a-z0-9_-]{1,63}$/).default('platform'),
  SEED_DEMO: bool.optional(),
  CORS_ORIGINS: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .refine((v) => v === '' || /^(true|false|\d{1,2})$/.test(v) || v.split(',').every((p) => isProxyAddress(p.trim())), {
      error: 'TRUST_PROXY must be true, false, loopback, a number of proxy hops, or a comma-separated list of proxy addresses or subnets',
    })
    .optional(),
  WEB_DIST: z.string().default(resolve(REPO_ROOT, 'apps/web/dist')),
  MAX_UPLOAD_MB: z.coerce.number().min(1).max(500).default(20),
  SMS_PROVIDER: z.enum(['none', 'africastalking', 'webhook']).default('none'),
  AT_USERNAME: z.string().optional(),
  AT_API_KEY: z.string().optional(),
  AT_SENDER_ID: z.string().optional(),
  AT_BASE_URL: z.string().url().default('https://api.africastalking.com'),
  SMS_WEBHOOK_URL: z.string().url().optional(),
  SMS_WEBHOOK_SECRET: z.string().optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).default(2000),
  OUTBOX_ENABLED: bool.default(true),
  NOTICE_SWEEP_MS: z.coerce.number().int().min(10_000).default(600_000),
  // How often each process emails users the notifications they chose to be emailed, and sends the mail queued.
  NOTIFICATION_EMAIL_MS: z.coerce.number().int().min(1_000).default(60_000),
  // The hour of the business day (TIME_ZONE) from which the summary of the day before is emailed to who asked for it.
  DAILY_SUMMARY_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  // How often each process looks for M-Pesa Express requests whose result never came, to ask M-Pesa once.
  MPESA_EXPRESS_SWEEP_MS: z.coerce.number().int().min(10_000).default(60_000),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  // The address the world reaches this installation at (https://payg.example.com): where M-Pesa Express results are posted.
  PUBLIC_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v), { error: 'PUBLIC_URL must be an http(s) address such as https://payg.example.com' })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  // The mail server Kidogo sends email through (a link to choose a new password): smtp://user:password@host:587
  // (STARTTLS when the server offers it) or smtps://user:password@host:465.
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\/[^\s/?#]+/.test(v), { error: 'SMTP_URL must be an smtp:// or smtps:// address such as smtp://user:password@smtp.example.com:587' })
    .optional(),
  // The sender of that email: an address, or a name and an address ("Kidogo <no-reply@payg.example.com>").
  MAIL_FROM: z.string().trim().min(3).max(254).optional(),
  // Every organization's M-Pesa Express calls go here instead of Safaricom (an egress proxy, a test double).
  MPESA_EXPRESS_BASE_URL: z.string().url().optional(),
  // Every organization's MTN MoMo calls go here instead of MTN (an egress proxy, a test double).
  MTN_MOMO_BASE_URL: z.string().url().optional(),
  // Every organization's Airtel Money calls go here instead of Airtel (an egress proxy, a test double).
  AIRTEL_MONEY_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  TIME_ZONE: z
    .string()
    .trim()
    .default(DEFAULT_TIME_ZONE)
    .transform((v) => v || DEFAULT_TIME_ZONE)
    .refine(isTimeZone, {
      error: (i) =>
        `TIME_ZONE must be an IANA time zone name such as Africa/Nairobi, Africa/Kampala or UTC (got ${JSON.stringify(i.input)})`,
    }),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Null until the embedded server is up when DATABASE_URL is unset. */
  databaseUrl: string | null;
  databaseReadUrl: string | null;
  databasePoolSize: number;
  /** API processes on this port (node:cluster); 1 runs in this process. */
  workers: number;
  embedded: { enabled: boolean; port: number; dir: string };
  dataDir: string;
  jwtSecret: string;
  jwtExpiresIn: number;
  refreshTokenTtlDays: number;
  encryptionKey: Buffer;
  admin: { username: string | null; password: string | null; email: string | null; organizationId: string };
  seedDemo: boolean;
  corsOrigins: string[];
  /**
   * Which proxies' X-Forwarded-For is believed for the client address
   * (sign-in lockout per address, audit), with Express's "trust proxy"
   * meaning (see httpAdapter). Default: loopback only.
   */
  trustProxy: boolean | number | string;
  webDist: string;
  maxUploadBytes: number;
  sms: {
    provider: 'none' | 'africastalking' | 'webhook';
    atUsername?: string;
    atApiKey?: string;
    atSenderId?: string;
    atBaseUrl: string;
    webhookUrl?: string;
    webhookSecret?: string;
  };
  outbox: { enabled: boolean; pollMs: number };
  /** How often each process looks for notifications nobody's action writes (promises, held payments). */
  noticeSweepMs: number;
  mpesaExpressSweepMs: number;
  /** Whether event webhooks may go to private, loopback and link-local addresses (the installation's own network). */
  webhookAllowPrivate: boolean;
  /** The installation's public address (PUBLIC_URL, no trailing slash), or null: M-Pesa Express needs it for its results. */
  publicUrl: string | null;
  /** SMTP_URL and MAIL_FROM: email is sent only when smtpUrl is set. */
  mail: { smtpUrl: string | null; from: string; notificationEmailMs: number; dailySummaryHour: number };
  /** MPESA_EXPRESS_BASE_URL: where M-Pesa Express calls go instead of Safaricom, unless an organization's own base_url says otherwise. */
  mpesaExpressBaseUrl: string | null;
  /** MTN_MOMO_BASE_URL: where MTN MoMo calls go instead of MTN, unless an organization's own base_url says otherwise. */
  mtnMomoBaseUrl: string | null;
  /** AIRTEL_MONEY_BASE_URL: where Airtel Money calls go instead of Airtel, unless an organization's own base_url says otherwise. */
  airtelMoneyBaseUrl: string | null;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** The business time zone (IANA name): every day, week and month the API counts is one of its days. */
  timeZone: string;
  version: string;
}

export class ConfigError extends Error {}

/**
 * Reads and checks the environment once at start. In development the JWT
 * secret and encryption key are generated on first start and kept in
 * DATA_DIR/secrets.json so sessions and encrypted device keys survive
 * restarts; production must set them.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // A variable set to nothing is not set: docker-compose.yml passes `${SMS_WEBHOOK_URL:-}` and the like as empty strings.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production) {
    const missing = [
      !e.JWT_SECRET && 'JWT_SECRET',
      !e.PAYG_ADMIN_PASSWORD && 'PAYG_ADMIN_PASSWORD',
      !e.ENCRYPTION_KEY && 'ENCRYPTION_KEY',
    ].filter(Boolean);
    if (missing.length) {
      throw new ConfigError(`NODE_ENV=production needs ${missing.join(', ')} to be set`);
    }
  }
  const dataDir = resolve(e.DATA_DIR);
  const needGenerated = !e.JWT_SECRET || !e.ENCRYPTION_KEY;
  const generated = needGenerated ? devSecrets(dataDir) : null;
  const embeddedEnabled = !e.DATABASE_URL;
  const hasAdminEnv = Boolean(e.PAYG_ADMIN_USERNAME || e.PAYG_ADMIN_PASSWORD);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? null,
    databaseReadUrl: e.DATABASE_READ_URL ?? null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    workers: e.API_WORKERS,
    embedded: { enabled: embeddedEnabled, port: e.EMBEDDED_PG_PORT, dir: resolve(dataDir, 'pg') },
    dataDir,
    jwtSecret: e.JWT_SECRET ?? generated!.jwtSecret,
    jwtExpiresIn: e.JWT_EXPIRES_IN,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    encryptionKey: Buffer.from(e.ENCRYPTION_KEY ?? generated!.encryptionKey, 'hex'),
    admin: {
      username: e.PAYG_ADMIN_USERNAME ?? (hasAdminEnv ? 'admin' : null),
      password: e.PAYG_ADMIN_PASSWORD ?? null,
      email: e.PAYG_ADMIN_EMAIL ?? null,
      organizationId: e.PAYG_ADMIN_ORG,
    },
    // The demo data is for the embedded quick start only, unless asked for.
    seedDemo: e.SEED_DEMO ?? (embeddedEnabled && !hasAdminEnv && !production),
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    trustProxy: trustProxy(e.TRUST_PROXY),
    webDist: resolve(e.WEB_DIST),
    maxUploadBytes: Math.round(e.MAX_UPLOAD_MB * 1024 * 1024),
    sms: {
      provider: e.SMS_PROVIDER,
      atUsername: e.AT_USERNAME,
      atApiKey: e.AT_API_KEY,
      atSenderId: e.AT_SENDER_ID,
      atBaseUrl: e.AT_BASE_URL,
      webhookUrl: e.SMS_WEBHOOK_URL,
      webhookSecret: e.SMS_WEBHOOK_SECRET,
    },
    outbox: { enabled: e.OUTBOX_ENABLED, pollMs: e.OUTBOX_POLL_MS },
    noticeSweepMs: e.NOTICE_SWEEP_MS,
    mpesaExpressSweepMs: e.MPESA_EXPRESS_SWEEP_MS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    publicUrl: e.PUBLIC_URL ?? null,
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `Kidogo <no-reply@${mailHost(e.PUBLIC_URL)}>`,
      notificationEmailMs: e.NOTIFICATION_EMAIL_MS,
      dailySummaryHour: e.DAILY_SUMMARY_HOUR,
    },
    mpesaExpressBaseUrl: e.MPESA_EXPRESS_BASE_URL?.replace(/\/+$/, '') ?? null,
    mtnMomoBaseUrl: e.MTN_MOMO_BASE_URL?.replace(/\/+$/, '') ?? null,
    airtelMoneyBaseUrl: e.AIRTEL_MONEY_BASE_URL?.replace(/\/+$/, '') ?? null,
    logLevel: e.LOG_LEVEL,
    timeZone: e.TIME_ZONE,
    version: readVersion(),
  };
}

/** The host of PUBLIC_URL for the default sender's address (no-reply@payg.example.com), else localhost. */
function mailHost(publicUrl: string | undefined): string {
  return publicUrl ? new URL(publicUrl).hostname : 'localhost';
}

function trustProxy(v: string | undefined): boolean | number | string {
  if (!v || v === 'loopback') return 'loopback';
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function devSecrets(dataDir: string): { jwtSecret: string; encryptionKey: string } {
  const file = resolve(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof s.jwtSecret === 'string' && /^[0-9a-f]{64}$/.test(s.encryptionKey)) return s;
  }
  mkdirSync(dataDir, { recursive: true });
  const s = { jwtSecret: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
  writeFileSync(file, JSON.stringify(s, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return s;
}

function readVersion(): string {
  try {
    return JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const APP_CONFIG = Symbol('APP_CONFIG');
