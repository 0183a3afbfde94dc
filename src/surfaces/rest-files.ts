import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyAction, MediaBinding } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { ServiceError } from '../core/errors.js';
import type { StagedBlob } from '../files/blob-store.js';
import { hasBody } from './admission.js';
import { notModified } from './not-modified.js';

/**
 * Files over REST: an upload's body streamed to the blob store (never held in memory), and the bytes behind a record
 * (`?variant=display`) sent from disk with strong ETags. The surface only moves bytes; `invoke` decides everything.
 */

const tooLarge = (limit: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than this server accepts (${Math.floor(limit / 1048576)} MiB); send a smaller export.`,
  );

/**
 * Streams the request body to a staged file. A declared length past the limit is refused before a byte is read; an
 * undeclared one is cut off as soon as it crosses the limit. Either way the connection closes after the answer, so
 * the rest of the body is never read.
 */
export async function stageUpload(rt: Runtime, req: FastifyRequest, reply: FastifyReply): Promise<StagedBlob> {
  const limit = rt.config.uploadLimit;
  const declared = Number(req.headers['content-length']);
  if (!hasBody(req.raw) || declared === 0) {
    throw new ServiceError('VALIDATION_FAILED', 'Send the photograph file itself as the request body.', {
      errors: [{ path: 'body', message: 'Empty.' }],
    });
  }
  if (Number.isFinite(declared) && declared > limit) {
    reply.header('connection', 'close');
    throw tooLarge(limit);
  }
  try {
    return await rt.files.stage(req.raw, limit, () => tooLarge(limit));
  } catch (err) {
    if (err instanceof ServiceError) reply.header('connection', 'close');
    throw err;
  }
}

/** The upload's Content-Type and name, as the action's input fields. */
export function uploadFields(action: AnyAction, req: FastifyRequest): Record<string, unknown> {
  const upload = action.http!.upload!;
  const query = req.query as Record<string, unknown>;
  return {
    [upload.typeField]: req.headers['content-type'] ?? 'application/octet-stream',
    ...(query[upload.nameField] !== undefined ? { [upload.nameField]: query[upload.nameField] } : {}),
  };
}

/** The media choice a GET asks for (`?variant=display`), taken out of the query the action sees. */
export function mediaChoice(media: MediaBinding, query: Record<string, unknown>) {
  const choice = query[media.query];
  const tag = query[media.tagQuery];
  delete query[media.query];
  delete query[media.tagQuery];
  if (choice === undefined) return undefined;
  if (typeof choice !== 'string' || !media.choices.includes(choice)) {
    throw new ServiceError('VALIDATION_FAILED', `${media.query} is one of ${media.choices.join(', ')}.`, {
      errors: [{ path: media.query, message: `One of ${media.choices.join(', ')}.` }],
    });
  }
  return { choice, tag: typeof tag === 'string' ? tag : undefined };
}

/** Sends the bytes behind the record, from disk. A URL naming the current rendering may be cached for ever. */
export async function sendMedia(
  rt: Runtime,
  req: FastifyRequest,
  reply: FastifyReply,
  media: MediaBinding,
  output: unknown,
  wanted: { choice: string; tag?: string },
) {
  const file = await media.open(rt.files, output, wanted.choice);
  reply
    .header('etag', file.etag)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', wanted.tag === file.tag ? 'private, max-age=31536000, immutable' : 'private, no-cache');
  if (notModified(req.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply
    .code(200)
    .type(file.mediaType)
    .header('content-length', String(file.size))
    .send(rt.files.open(file.path));
}
