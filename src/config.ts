import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { isPostgresUrl } from '../db/open.js';

/** Everything configurable, read from the environment once. Documented in the README's Configuration table. */
export interface Config {
  host: string;
  port: number;
  /** The SQLite file; with `databaseUrl` set, its folder still keeps the demo owner's token. */
  databasePath: string;
  /** STUDIO_DATABASE_URL: PostgreSQL (`postgres://…`) instead of the SQLite file. */
  databaseUrl?: string;
  /** Public base URL of this server, used in printed links and OpenAPI `servers`. */
  baseUrl: string;
  /**
   * Whether STUDIO_BASE_URL named the base URL. When it did not, a process without an HTTP server of its own (stdio
   * MCP) builds links on the base URL a live `studio serve` reports instead (src/domain/serving/heartbeat.ts).
   */
  baseUrlSet?: boolean;
  /** Where the documentation (actions.json, openapi.json) is served. */
  docsUrl: string;
  /** Where photographs and other files are kept (STUDIO_BLOB_DIR; default: `blobs/` beside the SQLite file). */
  blobDir: string;
  /** Largest JSON request body accepted, in bytes. */
  bodyLimit: number;
  /** Largest photograph an HTTP upload may send, in bytes (streamed to disk, never held in memory). */
  uploadLimit: number;
  /** Largest `/mcp` request body, in bytes: a base64 photograph of up to 24 MiB decoded fits. */
  mcpBodyLimit: number;
  /** How long a client may take to send its request headers, in milliseconds. */
  headersTimeout: number;
  /** How long a client may take to send its whole request (headers and body), in milliseconds. */
  requestTimeout: number;
  /** How long an idle keep-alive connection stays open between requests, in milliseconds. */
  keepAliveTimeout: number;
  /**
   * How long a connection may be silent (nothing received or sent) before it is closed, in milliseconds; while the
   * server is still working on the answer to a request that has fully arrived, up to ten times as long
   * (see surfaces/idle-timeout.ts).
   */
  idleTimeout: number;
  /** Authenticated requests whose bodies are being received or answered at once; more answer 503 SERVER_BUSY. */
  maxInflightBodies: number;
  /**
   * Bytes of request bodies held in memory at once (declared lengths; an upload streamed to disk holds none, and an
   * MCP call's base64 file goes to disk as it arrives); a request that would pass it answers 503 SERVER_BUSY.
   */
  maxInflightBodyBytes: number;
  /** Web origins, besides the server's own (its base URL), from which browsers may call `/mcp`. */
  allowedOrigins: string[];
  /** Operation workers this process runs (STUDIO_WORKERS; 0: leave operations to other processes). */
  workers: number;
  /**
   * STUDIO_OPERATION_LEASE_SECONDS: how long a worker's claim on an operation holds without renewal (renewed every
   * third of it). A process that dies mid-operation leaves it to be taken up again once this has passed.
   */
  operationLeaseSeconds: number;
  /**
   * STUDIO_SMTP_URL: the mail server documents are delivered through (`smtp://user:pass@host:587`, `smtps://…:465`);
   * unset: deliver_document answers 503 DELIVERY_NOT_CONFIGURED.
   */
  smtpUrl?: string;
  /** STUDIO_MAIL_FROM: the From of delivered documents, e.g. `Harbour Studio <studio@example.com>`. */
  mailFrom?: string;
  /**
   * STUDIO_SECRET: the key download links are signed with (at least 32 characters); unset: a random key kept in
   * `link-secret` beside the database, made on first use. Set it when several machines serve one studio.
   */
  secret?: string;
  /**
   * Xero, the accounting provider: the studio's app registration (STUDIO_XERO_CLIENT_ID, STUDIO_XERO_CLIENT_SECRET;
   * unset: connect_accounting answers 503 ACCOUNTING_NOT_CONFIGURED) and its base URLs (STUDIO_XERO_LOGIN_URL,
   * STUDIO_XERO_IDENTITY_URL, STUDIO_XERO_API_URL; the real ones by default, so tests can point them at local servers).
   */
  xero: { clientId?: string; clientSecret?: string; loginUrl: string; identityUrl: string; apiUrl: string };
  /**
   * STUDIO_HEAP_GROWTH_PERCENT: how far `studio serve` lets V8's old generation grow past what its last full
   * collection kept before collecting again (V8's --heap-growing-percent, set by src/serve.ts). 0: V8's own
   * heuristics, which let a busy server's heap reach about four times its live data.
   */
  heapGrowthPercent: number;
  /**
   * STUDIO_STORAGE_QUOTA_BYTES: the most a studio's files may take in the blob store (its storage figure, in
   * get_studio_usage); an upload, render or package past it is refused 413 STORAGE_QUOTA_EXCEEDED. 0 (the default):
   * no quota.
   */
  storageQuotaBytes: number;
  /**
   * STUDIO_SWEEP_HOURS: how often a process running workers removes files nothing names any more (24; 0: never, leave
   * it to `studio sweep`).
   */
  sweepHours: number;
  /** Skip seeding the demo studio on first start. */
  noDemo: boolean;
  /** STUDIO_LOG_LEVEL: `silent`, `error`, `warn`, `info` (one line per request) or `debug`. */
  logLevel: LogLevel;
  /** STUDIO_LOG_FORMAT: `json` (one JSON object per line, for a log collector) or `text` (for a terminal). */
  logFormat: 'json' | 'text';
  synchronous: 'FULL' | 'NORMAL';
}

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `STUDIO_LOG_LEVEL`: one of LOG_LEVELS (default `info`: a line per request); anything else stops the start. */
function logLevel(raw: string | undefined): LogLevel {
  const level = raw?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`STUDIO_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${raw}".`);
  return level as LogLevel;
}

/** `STUDIO_LOG_FORMAT`: `json` (default) or `text`. */
function logFormat(raw: string | undefined): 'json' | 'text' {
  const format = raw?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'text') throw new Error(`STUDIO_LOG_FORMAT must be json or text, not "${raw}".`);
  return format;
}

/** The project folder (where package.json is), whether running from src/ via tsx or from dist/src/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * The default database lives in the project's own data/ folder, not the current directory, so that an MCP client
 * launching `node /path/to/dist/studio.mjs mcp` from anywhere reaches the same studio the HTTP server created.
 */
export const DEFAULT_DATABASE = resolve(projectRoot(), 'data/studio.sqlite');

/** A whole number from the environment, or the default when unset; anything else stops the start with a clear message. */
function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}".`);
  return Number(raw);
}

/** `STUDIO_ALLOWED_ORIGINS`: comma-separated origins (`https://app.example.com`), each normalised by URL. */
function origins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const origin = URL.canParse(s) ? new URL(s).origin : 'null';
      if (origin === 'null')
        throw new Error(`STUDIO_ALLOWED_ORIGINS holds "${s}", which is not an origin like https://app.example.com.`);
      return origin;
    });
}

/** `STUDIO_SMTP_URL`: an smtp:// or smtps:// URL, or unset. */
function smtpUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  if (!url) return undefined;
  if (!/^smtps?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    throw new Error(
      'STUDIO_SMTP_URL must be a URL like smtps://user:password@mail.example.com:465 or smtp://host:587.',
    );
  }
  return url;
}

/** `STUDIO_SECRET`: long enough to be a key, or unset. */
function secret(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new Error('STUDIO_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`).');
  return raw;
}

/**
 * Once the server listens: a base URL that named port 0 (STUDIO_PORT=0, "any free port") names the port it got, so the
 * links the server hands out (a share's page, a download) reach it. A base URL set explicitly is left as it is.
 */
export function settlePort(config: Config, port: number) {
  const settled = (u: string) => u.replace(/^(https?:\/\/[^/]+):0(?=\/|$)/, `$1:${port}`);
  config.baseUrl = settled(config.baseUrl);
  config.docsUrl = settled(config.docsUrl);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number.parseInt(env.STUDIO_PORT ?? env.PORT ?? '3000', 10);
  const host = env.STUDIO_HOST ?? '127.0.0.1';
  const baseUrl = (env.STUDIO_BASE_URL ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(
    /\/$/,
    '',
  );
  const databaseUrl = env.STUDIO_DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !isPostgresUrl(databaseUrl)) {
    throw new Error('STUDIO_DATABASE_URL must be a PostgreSQL URL like postgres://user:password@host:5432/studio.');
  }
  const databasePath = env.STUDIO_DATABASE ? resolve(env.STUDIO_DATABASE) : DEFAULT_DATABASE;
  return {
    host,
    port,
    databasePath,
    blobDir: env.STUDIO_BLOB_DIR ? resolve(env.STUDIO_BLOB_DIR) : resolve(dirname(databasePath), 'blobs'),
    databaseUrl,
    baseUrl,
    baseUrlSet: env.STUDIO_BASE_URL !== undefined,
    docsUrl: (env.STUDIO_DOCS_URL ?? `${baseUrl}/docs`).replace(/\/$/, ''),
    bodyLimit: Number.parseInt(env.STUDIO_BODY_LIMIT ?? String(1024 * 1024), 10),
    uploadLimit: whole(env, 'STUDIO_UPLOAD_LIMIT', 128 * 1024 * 1024, 1),
    mcpBodyLimit: whole(env, 'STUDIO_MCP_BODY_LIMIT', 34 * 1024 * 1024, 1024),
    headersTimeout: whole(env, 'STUDIO_HEADERS_TIMEOUT_MS', 10_000, 1),
    requestTimeout: whole(env, 'STUDIO_REQUEST_TIMEOUT_MS', 30_000, 1),
    keepAliveTimeout: whole(env, 'STUDIO_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1),
    idleTimeout: whole(env, 'STUDIO_IDLE_TIMEOUT_MS', 60_000, 1),
    maxInflightBodies: whole(env, 'STUDIO_MAX_INFLIGHT_BODIES', 64, 1),
    maxInflightBodyBytes: whole(env, 'STUDIO_MAX_INFLIGHT_BODY_BYTES', 128 * 1024 * 1024, 1024 * 1024),
    allowedOrigins: origins(env.STUDIO_ALLOWED_ORIGINS),
    smtpUrl: smtpUrl(env.STUDIO_SMTP_URL),
    mailFrom: env.STUDIO_MAIL_FROM?.trim() || undefined,
    secret: secret(env.STUDIO_SECRET),
    xero: {
      clientId: env.STUDIO_XERO_CLIENT_ID?.trim() || undefined,
      clientSecret: env.STUDIO_XERO_CLIENT_SECRET?.trim() || undefined,
      loginUrl: (env.STUDIO_XERO_LOGIN_URL?.trim() || 'https://login.xero.com').replace(/\/+$/, ''),
      identityUrl: (env.STUDIO_XERO_IDENTITY_URL?.trim() || 'https://identity.xero.com').replace(/\/+$/, ''),
      apiUrl: (env.STUDIO_XERO_API_URL?.trim() || 'https://api.xero.com').replace(/\/+$/, ''),
    },
    noDemo: env.STUDIO_NO_DEMO === '1',
    workers: whole(env, 'STUDIO_WORKERS', 1),
    operationLeaseSeconds: whole(env, 'STUDIO_OPERATION_LEASE_SECONDS', 30, 3),
    storageQuotaBytes: whole(env, 'STUDIO_STORAGE_QUOTA_BYTES', 0),
    sweepHours: whole(env, 'STUDIO_SWEEP_HOURS', 24),
    heapGrowthPercent: whole(env, 'STUDIO_HEAP_GROWTH_PERCENT', 50),
    logLevel: logLevel(env.STUDIO_LOG_LEVEL),
    logFormat: logFormat(env.STUDIO_LOG_FORMAT),
    synchronous: env.STUDIO_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL',
  };
}
