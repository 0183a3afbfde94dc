import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config } from '../config.js';
import { redactPath } from './redact.js';

/**
 * What a log line may say about a request: its method, its route (the pattern, `/v1/projects/:projectId`) and its path
 * with any token in it redacted (`/s/[token]`). Never its query (a tRPC or agent-results input may carry a share
 * token), never a header (Authorization, Cookie), never a body (a password). Fastify's own lines (an error it logs
 * itself) go through this too.
 */
function safeRequest(req: FastifyRequest) {
  return { method: req.method, route: req.routeOptions?.url, path: redactPath(req.url.split('?')[0]!) };
}

/**
 * `STUDIO_LOG_FORMAT=text`: each line as a person reads it at a terminal (`14:02:03 info GET /v1/projects 200 4.1ms`)
 * instead of JSON; pino-pretty is not a dependency, and this is all a terminal needs.
 */
export const textStream = {
  write(line: string) {
    const { time, level, msg, method, path, status, ms, requestId, studioId, pid, hostname, route, ...rest } =
      JSON.parse(line);
    const when = new Date(time).toISOString().slice(11, 19);
    const request = method ? ` ${method} ${path} ${status} ${ms}ms ${requestId}${studioId ? ` ${studioId}` : ''}` : '';
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    process.stdout.write(`${when} ${LEVEL_NAMES[level] ?? level} ${msg}${request}${extra}\n`);
  },
};

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Fastify's own pino logger at `STUDIO_LOG_LEVEL`, JSON lines on stdout (or text, when asked), requests redacted. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: { req: safeRequest, res: (res) => ({ status: res.statusCode }) },
    ...(config.logFormat === 'text' ? { stream: textStream } : {}),
  };
}

/** The levels at which an `info` line is written. */
const WRITES_INFO = new Set(['trace', 'debug', 'info']);

/**
 * Fastify's request logging, made one line per request, when it has been answered: method, route, redacted path,
 * status, duration, request id (the problem documents' `requestId`) and the studio when a token named one. A 5xx (or a
 * request that failed while answering) is an `error` line, every other an `info` line; at `debug`, the client's
 * User-Agent too. Fastify's "incoming request" line is not written: the answered one says everything it did.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode;
    // At `warn` and above an answered request writes nothing: the line is not even built (every request passes here).
    if (status < 500 && !error && !WRITES_INFO.has(req.log.level)) return;
    const line = {
      ...safeRequest(req),
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(req.caller ? { studioId: req.caller.studioId } : {}),
      ...(req.log.level === 'debug' ? { userAgent: req.headers['user-agent'] } : {}),
    };
    if (status >= 500 || error) req.log.error(line, 'request');
    else req.log.info(line, 'request');
  }
}

/** A child logger's bindings and options, as fastify hands them to its factory. */
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
/** A log method of pino's, called with whatever it was given. */
type Logs = (...args: unknown[]) => void;

/**
 * A request's logger, made when the request arrives (fastify binds the request id to a child of the server's logger)
 * but only made real when something is logged through it. At `warn` and above an answered request logs nothing, so
 * most requests never pay for the child; its level is read from what the child would have.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}
  private get real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }
  private log(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]) {
    const real = this.real;
    (real[method] as Logs).apply(real, args);
  }
  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.real.child(bindings, options);
  }
  fatal(...args: unknown[]) {
    this.log('fatal', args);
  }
  error(...args: unknown[]) {
    this.log('error', args);
  }
  warn(...args: unknown[]) {
    this.log('warn', args);
  }
  info(...args: unknown[]) {
    this.log('info', args);
  }
  debug(...args: unknown[]) {
    this.log('debug', args);
  }
  trace(...args: unknown[]) {
    this.log('trace', args);
  }
  silent() {}
}

/** Fastify's `childLoggerFactory`: each request's logger, made real on first use (RequestLogger). */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
