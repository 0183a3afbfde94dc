import { Readable } from 'node:stream';
import type { ServiceError } from '../core/errors.js';
import type { BlobStore, StagedBlob } from './blob-store.js';

/** A data: URL's head (what a browser or some agents send): the same base64 follows its comma. */
export const DATA_URL_HEAD = /^data:[^,]{0,200};base64,/;

const WHITESPACE = /[\t\n\r ]+/g;
const ALPHABET = /^[A-Za-z0-9+/]*$/;

/**
 * Standard base64 decoded piece by piece, as it arrives, so a file sent as base64 never has to be held whole, neither
 * as text nor as bytes. White space is skipped (MIME wraps lines). The text is base64 (`valid`) by the same rule as
 * a whole-text check: the alphabet, then at most two '=' at the very end, and not one character past a whole quantum.
 */
export class Base64Decoder {
  valid = true;
  /** Characters of the alphabet read so far. */
  chars = 0;
  private padding = 0;
  /** Under four characters not yet decoded: base64 decodes four at a time. */
  private carry = '';

  /** The bytes that `piece` completes; none once the text is known not to be base64. */
  write(piece: string): Buffer {
    if (!this.valid) return EMPTY;
    const text = piece.replace(WHITESPACE, '');
    if (!text) return EMPTY;
    const pad = this.padding ? 0 : text.indexOf('=');
    const data = pad < 0 ? text : text.slice(0, pad);
    const padding = pad < 0 ? '' : text.slice(pad);
    if (!ALPHABET.test(data) || !/^=*$/.test(padding) || this.padding + padding.length > 2) return this.fail();
    this.padding += padding.length;
    if (!data) return EMPTY;
    this.chars += data.length;
    const all = this.carry + data;
    const whole = all.length - (all.length % 4);
    this.carry = all.slice(whole);
    return whole ? Buffer.from(all.slice(0, whole), 'base64') : EMPTY;
  }

  /** The last bytes, once the text has ended. */
  end(): Buffer {
    if (!this.valid) return EMPTY;
    if ((this.chars + this.padding) % 4 === 1) return this.fail();
    const last = this.carry ? Buffer.from(this.carry, 'base64') : EMPTY;
    this.carry = '';
    return last;
  }

  private fail(): Buffer {
    this.valid = false;
    this.carry = '';
    return EMPTY;
  }
}

/**
 * Base64 text already in memory (a tRPC or stdio MCP call's input) decoded into a staged file a slice at a time, so
 * its bytes are never held whole beside it. Answers undefined when the text is not base64 (nothing is kept).
 */
export async function stageBase64Text(
  files: BlobStore,
  text: string,
  limit: number,
  tooLarge: () => ServiceError,
): Promise<StagedBlob | undefined> {
  const decoder = new Base64Decoder();
  const body = text.replace(DATA_URL_HEAD, '');
  const SLICE = 1 << 20;
  function* bytes() {
    for (let at = 0; at < body.length && decoder.valid; at += SLICE) {
      const chunk = decoder.write(body.slice(at, at + SLICE));
      if (chunk.length) yield chunk;
    }
    const last = decoder.end();
    if (last.length) yield last;
  }
  const staged = await files.stage(Readable.from(bytes()), limit, tooLarge);
  if (decoder.valid) return staged;
  await files.discard(staged);
  return undefined;
}

const EMPTY = Buffer.alloc(0);
