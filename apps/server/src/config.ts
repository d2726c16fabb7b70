import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
  DATABASE_URL: z.string().optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Pathwell <no-reply@pathwell.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  APP_DATABASE_URL: z.string().optional(),
  /** A read replica (same role and login as the app's) that report routes read from (decision 0043). */
  READ_DATABASE_URL: z.string().optional(),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM_NUMBER: z.string().optional(),
  /** Where the Twilio SDK sends its requests instead of api.twilio.com (tests, a compatible gateway). */
  TWILIO_API_BASE_URL: z.string().url().optional(),
  SUPPORT_EMAIL: z.string().email().optional(),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(5),
  /** The intake sweep (decision 0034): intake links go out on their own before each visit. */
  INTAKE_AUTO_SEND: z.enum(['true', 'false']).default('true'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The application's own login on a PostgreSQL server (decision 0022): a role that owns nothing and is
   * not a superuser, member of pathwell_app and pathwell_system. DATABASE_URL then only migrates.
   */
  appDatabaseUrl: string | undefined;
  readDatabaseUrl: string | undefined;
  appSecret: string;
  admin: { email: string; password: string } | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  trustProxy: boolean;
  webDist: string;
  /** Demo mode seeds the demo clinics and exposes the outbox page; never in production. */
  demoMode: boolean;
  /** Texts for clinics that have no Twilio account of their own in instance settings. */
  twilio: { accountSid: string; authToken: string; fromNumber: string | undefined } | undefined;
  twilioApiBaseUrl: string | undefined;
  /** Contact-support requests go here; without it they stay in the outbox. */
  supportEmail: string | undefined;
  jobs: { retryDelaySeconds: number; retryLimit: number; pollSeconds: number };
  /** Intake links go out on their own before each visit (decision 0034); off in the API tests and e2e. */
  intakeAutoSend: boolean;
}

/**
 * Outside production a secret is generated once and kept in the data folder, so that a newcomer needs
 * no configuration and restarts keep working; production refuses to start without APP_SECRET.
 */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, '.app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  if (isProduction && !values.APP_SECRET) throw new Error('APP_SECRET is required when NODE_ENV=production');
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL || undefined,
    appDatabaseUrl: values.APP_DATABASE_URL || undefined,
    readDatabaseUrl: values.READ_DATABASE_URL || undefined,
    appSecret: values.APP_SECRET ?? (values.DATABASE_URL ? 'x'.repeat(32) : developmentSecret(dataDir)),
    admin:
      values.ADMIN_EMAIL && values.ADMIN_PASSWORD ? { email: values.ADMIN_EMAIL, password: values.ADMIN_PASSWORD } : undefined,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    smtpUrl: values.SMTP_URL || undefined,
    mailFrom: values.MAIL_FROM,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY === 'true',
    webDist: values.WEB_DIST,
    demoMode: !isProduction,
    twilio:
      values.TWILIO_ACCOUNT_SID && values.TWILIO_AUTH_TOKEN
        ? { accountSid: values.TWILIO_ACCOUNT_SID, authToken: values.TWILIO_AUTH_TOKEN, fromNumber: values.TWILIO_FROM_NUMBER }
        : undefined,
    twilioApiBaseUrl: values.TWILIO_API_BASE_URL,
    supportEmail: values.SUPPORT_EMAIL,
    jobs: {
      retryDelaySeconds: values.JOB_RETRY_DELAY_SECONDS,
      retryLimit: values.JOB_RETRY_LIMIT,
      pollSeconds: values.JOB_POLL_SECONDS,
    },
    intakeAutoSend: values.INTAKE_AUTO_SEND === 'true',
  };
}
