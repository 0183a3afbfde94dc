import { basename } from 'node:path';
import type { PrepareEnv } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { DATA_URL_HEAD, stageBase64Text } from '../../files/base64.js';
import type { StagedBlob } from '../../files/blob-store.js';
import { inspectImage, type PhotographType } from '../../files/images.js';
import { assertUploadRoom } from '../storage/quota.js';
import { ensureDerived } from './variants.js';

/** A photograph sent base64 (MCP, tRPC) is at most this large decoded; the HTTP upload takes up to 128 MiB. */
export const BASE64_MAX_BYTES = 24 * 1024 * 1024;

/** An upload checked, kept and derived, ready for its record: what `prepare` hands the handler. */
export interface PreparedPhotograph {
  sha256: string;
  mediaType: PhotographType;
  byteSize: number;
  width: number;
  height: number;
  filename: string;
}

export interface UploadInput {
  data?: string;
  mediaType: string;
  filename?: string;
}

const EXTENSION: Record<PhotographType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/avif': 'avif',
};

/**
 * Before the write transaction: the bytes (streamed by HTTP, or base64 in the input) are staged, their type read from
 * the bytes, the display and thumbnail sizes made (a damaged file fails here, before anything is recorded), and the
 * original kept byte-exact under its SHA-256. The staged file never outlives this call.
 */
export async function preparePhotograph(
  env: PrepareEnv,
  input: UploadInput,
  upload?: StagedBlob,
): Promise<PreparedPhotograph> {
  if (upload?.base64 && upload.size > BASE64_MAX_BYTES) throw tooLargeForBase64(upload.size);
  const staged = upload ?? (await stageBase64(env, input.data));
  try {
    await assertUploadRoom(env, staged);
    const facts = await inspectImage(staged.path, input.mediaType);
    const bytes = { sha256: staged.sha256, mediaType: facts.mediaType, byteSize: staged.size, rotation: 0 };
    await ensureDerived(env.files, bytes, 'display', staged.path);
    await ensureDerived(env.files, bytes, 'thumbnail', staged.path);
    await env.files.keep(staged);
    return {
      ...bytes,
      width: facts.width,
      height: facts.height,
      filename: cleanFilename(input.filename, facts.mediaType),
    };
  } finally {
    await env.files.discard(staged);
  }
}

/** The base64 in the input decoded into a staged file a slice at a time (never its bytes whole beside the text). */
async function stageBase64(env: PrepareEnv, data: string | undefined): Promise<StagedBlob> {
  if (data === undefined) {
    throw new ServiceError('VALIDATION_FAILED', "Send the photograph's bytes as base64 in data.", {
      errors: [{ path: 'data', message: 'Required: the file, base64-encoded.' }],
    });
  }
  // What it decodes to, about (white space aside), for the sentence of a refusal.
  const size = Math.floor((data.replace(DATA_URL_HEAD, '').length * 3) / 4);
  const staged = await stageBase64Text(env.files, data, BASE64_MAX_BYTES, () => tooLargeForBase64(size));
  if (!staged) {
    throw new ServiceError('VALIDATION_FAILED', 'data is not base64; encode the file with standard base64.', {
      errors: [{ path: 'data', message: 'Not base64.' }],
    });
  }
  if (!staged.size) {
    await env.files.discard(staged);
    throw new ServiceError('VALIDATION_FAILED', 'data is empty; send the photograph file.', {
      errors: [{ path: 'data', message: 'Empty.' }],
    });
  }
  return staged;
}

const tooLargeForBase64 = (size: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The photograph is ${(size / 1048576).toFixed(1)} MiB; base64 uploads take up to 24 MiB. Upload it over HTTP (POST the file to /v1/projects/{projectId}/items/{itemId}/photographs, up to 128 MiB) or send a smaller export.`,
  );

/**
 * The name as people will see it: the last part of any path the sender's system put in, control and bidirectional
 * characters removed, at most 200 characters; a name-less photograph is called photograph.<ext>.
 */
export function cleanFilename(sent: string | undefined, type: PhotographType): string {
  const last = basename((sent ?? '').replace(/\\/g, '/'));
  const clean = last
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : `photograph.${EXTENSION[type]}`;
}
