import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ServiceError } from '../../core/errors.js';
import { Base64Decoder, DATA_URL_HEAD } from '../../files/base64.js';
import type { BlobStore, StagedBlob } from '../../files/blob-store.js';

/**
 * An MCP request's JSON body, read as it arrives, with the files in it kept out of memory. Every action that takes a
 * file takes it base64 in a field named `data` (see FILE_FIELD and the contract test); such a string, once it is
 * longer than DIVERT_AT and base64 so far, is decoded as it streams in, straight into a staged file in the blob store
 * (as an HTTP upload's body is), and the parsed message holds a short stand-in, `upload:sha256:<digest>`, in its
 * place. So a 23 MiB photograph costs the server a few hundred kilobytes, not the ~80 MB of its text, its parse and
 * its decoded bytes, and the stand-in depends only on the file's bytes, so a retried call with the same idempotency
 * key still matches its first. Everything else is parsed as JSON.parse would, prototype keys refused as the server
 * refuses them everywhere.
 */

/** The input field every file-taking action receives its file in, base64. */
export const FILE_FIELD = 'data';
/** A `data` string this long, base64 so far, goes to a staged file rather than into memory. */
const DIVERT_AT = 64 * 1024;
/** Containers nested this deep are refused: no MCP message comes near it. */
const MAX_DEPTH = 64;

/** The stand-in for a file read out of the body, and its prefix. */
const STAND_IN = 'upload:sha256:';
export const standIn = (sha256: string) => `${STAND_IN}${sha256}`;

export interface McpBody {
  /** The JSON-RPC message (or batch), with stand-ins where files were. */
  message: unknown;
  /** The files read out of the body, by stand-in; each came base64 (`base64: true`). */
  uploads: Map<string, StagedBlob>;
  /** Every staged file this body made, to discard when the request is answered. */
  staged: StagedBlob[];
}

const invalidJson = () =>
  new ServiceError('VALIDATION_FAILED', 'The body is not valid JSON; check quotes, commas and brackets.');

/**
 * Reads and parses the body. Past `limit` bytes it stops with PAYLOAD_TOO_LARGE; `released(n)` is told of body
 * bytes that went to disk rather than memory (admission's budget gives them back). On any failure every staged file
 * is removed before the error is thrown.
 */
export async function readMcpBody(
  source: AsyncIterable<Buffer>,
  opts: { limit: number; files: BlobStore; tooLarge: () => ServiceError; released?: (bytes: number) => void },
): Promise<McpBody> {
  const reader = new JsonReader(opts.files, opts.limit, opts.tooLarge);
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  try {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > opts.limit) throw opts.tooLarge();
      reader.feed(decoder.write(chunk));
      const diverted = reader.takeDiverted();
      if (diverted) opts.released?.(diverted);
      await reader.drained();
    }
    reader.feed(decoder.end());
    return await reader.end();
  } catch (err) {
    await reader.abandon();
    throw err;
  }
}

type Frame =
  | { kind: 'object'; value: Record<string, unknown>; key: string | undefined }
  | { kind: 'array'; value: unknown[] };

/** Where the parser is: a value is due, a key, a colon, a comma or the container's end, or the message has ended. */
type Expect = 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma' | 'end';

/** A `data` string going to a staged file as it is read. */
interface Diversion {
  decoder: Base64Decoder;
  pass: PassThrough;
  staging: Promise<StagedBlob>;
  failure?: unknown;
  /** Where its stand-in goes once the file is kept. */
  into?: { object: Record<string, unknown>; key: string };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a string's end, an escape, or a control character (never bare in JSON).
const STRING_STOP = /["\\\u0000-\u001f]/g;
const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class JsonReader {
  private stack: Frame[] = [];
  private expect: Expect = 'value';
  private root: unknown;
  private hasRoot = false;
  /** Inside a string: its pieces so far, whether it is a key, and where an escape stands. */
  private inString = false;
  private isKey = false;
  private pieces: string[] = [];
  private length = 0;
  private divertable = false;
  private divert: Diversion | undefined;
  private escape: string | undefined;
  /** A number or literal being read. */
  private token = '';
  private diversions: Diversion[] = [];
  private divertedChars = 0;

  constructor(
    private readonly files: BlobStore,
    private readonly limit: number,
    private readonly tooLarge: () => ServiceError,
  ) {}

  feed(text: string) {
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.inString) {
        i = this.escape !== undefined ? this.readEscape(text, i) : this.readString(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      if (this.token) {
        if (isTokenChar(c)) {
          this.token += text[i];
          if (this.token.length > 400) throw invalidJson();
          i++;
          continue;
        }
        this.endToken();
      }
      if (WHITE.has(c)) {
        i++;
        continue;
      }
      this.structural(text[i]!);
      i++;
    }
  }

  /** Bytes that went to disk since the last call (base64 is ASCII: a character is a byte). */
  takeDiverted(): number {
    const n = this.divertedChars;
    this.divertedChars = 0;
    return n;
  }

  /** Waits while a staged file's stream has more waiting than it wants (the disk is slower than the network). */
  async drained() {
    for (const d of this.diversions) {
      if (d.failure) throw d.failure;
      if (d.pass.writableNeedDrain) await once(d.pass, 'drain');
    }
  }

  async end(): Promise<McpBody> {
    if (this.token) this.endToken();
    if (this.inString || this.stack.length || !this.hasRoot) {
      if (!this.hasRoot && !this.inString && !this.stack.length) {
        throw new ServiceError('VALIDATION_FAILED', 'The body is empty; send one JSON-RPC message as JSON.');
      }
      throw invalidJson();
    }
    const uploads = new Map<string, StagedBlob>();
    const staged: StagedBlob[] = [];
    try {
      for (const d of this.diversions) {
        const file = await d.staging;
        // Not base64 after all: a short text that says so stands in (the action refuses it as it would the text), and
        // the file goes at once.
        if (!d.decoder.valid) await this.files.discard(file);
        else staged.push(file);
        const name = d.decoder.valid ? standIn(file.sha256) : '(not base64)';
        if (d.decoder.valid) uploads.set(name, { ...file, base64: true });
        if (d.into) d.into.object[d.into.key] = name;
      }
    } catch (err) {
      for (const f of staged) await this.files.discard(f);
      throw err;
    }
    return { message: this.root, uploads, staged };
  }

  /** On failure: every staged stream ended and its file removed. */
  async abandon() {
    for (const d of this.diversions) {
      d.pass.destroy();
      const file = await d.staging.catch(() => undefined);
      if (file) await this.files.discard(file);
    }
    this.diversions = [];
  }

  private structural(ch: string): void {
    switch (this.expect) {
      case 'end':
        throw invalidJson();
      case 'colon':
        if (ch !== ':') throw invalidJson();
        this.expect = 'value';
        break;
      case 'key-or-end':
      case 'key':
        if (ch === '}' && this.expect === 'key-or-end') this.close('object');
        else if (ch === '"') this.startString(true);
        else throw invalidJson();
        break;
      case 'comma':
        if (ch === ',') this.expect = this.stack.at(-1)!.kind === 'array' ? 'value' : 'key';
        else this.close(ch === '}' ? 'object' : ch === ']' ? 'array' : undefined);
        break;
      case 'value-or-end':
        if (ch === ']') this.close('array');
        else {
          this.expect = 'value';
          this.structural(ch);
        }
        break;
      case 'value':
        if (ch === '{' || ch === '[') {
          if (this.stack.length >= MAX_DEPTH) throw invalidJson();
          this.stack.push(ch === '{' ? { kind: 'object', value: {}, key: undefined } : { kind: 'array', value: [] });
          this.expect = ch === '{' ? 'key-or-end' : 'value-or-end';
        } else if (ch === '"') this.startString(false);
        else if (isTokenChar(ch.charCodeAt(0))) this.token = ch;
        else throw invalidJson();
        break;
    }
  }

  private close(kind: 'object' | 'array' | undefined): void {
    const top = this.stack.at(-1);
    if (!top || top.kind !== kind) throw invalidJson();
    this.stack.pop();
    this.value(top.value);
  }

  /** A value is complete: it is the message, or goes into the container it was read in. */
  private value(v: unknown) {
    const top = this.stack.at(-1);
    if (!top) {
      this.root = v;
      this.hasRoot = true;
      this.expect = 'end';
      return;
    }
    if (top.kind === 'array') top.value.push(v);
    else {
      const key = top.key!;
      // A key sent twice keeps its last value, as JSON.parse does, even where an earlier one went to a file.
      for (const d of this.diversions) if (d.into?.object === top.value && d.into.key === key) d.into = undefined;
      // As fastify's own JSON parsing is set to: prototype poisoning is refused outright.
      if (key === '__proto__' || (key === 'constructor' && v && typeof v === 'object' && 'prototype' in v)) {
        throw new ServiceError(
          'VALIDATION_FAILED',
          'The body contains a "__proto__" or "constructor.prototype" key, which is never accepted; remove it.',
        );
      }
      top.value[key] = v;
    }
    this.expect = 'comma';
  }

  private startString(isKey: boolean) {
    this.inString = true;
    this.isKey = isKey;
    this.pieces = [];
    this.length = 0;
    const top = this.stack.at(-1);
    this.divertable = !isKey && top?.kind === 'object' && top.key === FILE_FIELD;
  }

  /** Reads a run of a string up to its end, an escape or the end of the text; returns where it stopped. */
  private readString(text: string, from: number): number {
    STRING_STOP.lastIndex = from;
    const stop = STRING_STOP.exec(text);
    const to = stop ? stop.index : text.length;
    if (to > from) this.add(text.slice(from, to));
    if (!stop) return to;
    const ch = text[to]!;
    if (ch === '"') {
      this.endString();
      return to + 1;
    }
    if (ch === '\\') {
      this.escape = '';
      return to + 1;
    }
    throw invalidJson(); // a control character, which JSON strings never hold unescaped
  }

  private readEscape(text: string, i: number): number {
    const ch = text[i]!;
    if (this.escape === '') {
      if (ch === 'u') {
        this.escape = 'u';
        return i + 1;
      }
      const plain = ESCAPES[ch];
      if (plain === undefined) throw invalidJson();
      this.escape = undefined;
      this.add(plain);
      return i + 1;
    }
    if (!/[0-9a-fA-F]/.test(ch)) throw invalidJson();
    this.escape += ch;
    if (this.escape!.length === 5) {
      this.add(String.fromCharCode(Number.parseInt(this.escape!.slice(1), 16)));
      this.escape = undefined;
    }
    return i + 1;
  }

  private add(piece: string) {
    if (this.divert) {
      this.divertedChars += piece.length;
      const bytes = this.divert.decoder.write(piece);
      if (bytes.length) this.divert.pass.write(bytes);
      return;
    }
    this.pieces.push(piece);
    this.length += piece.length;
    if (this.divertable && this.length >= DIVERT_AT) this.startDiversion();
  }

  /** The `data` string so far is long and base64: the rest of it goes to a staged file. */
  private startDiversion() {
    this.divertable = false;
    const text = this.pieces.join('');
    this.pieces = [text];
    const decoder = new Base64Decoder();
    const first = decoder.write(text.replace(DATA_URL_HEAD, ''));
    if (!decoder.valid) return;
    const pass = new PassThrough();
    const diversion: Diversion = {
      decoder,
      pass,
      staging: this.files.stage(pass, this.limit, this.tooLarge),
    };
    diversion.staging.catch((err: unknown) => {
      diversion.failure = err;
    });
    if (first.length) pass.write(first);
    this.divertedChars += text.length;
    this.pieces = [];
    this.length = 0;
    this.divert = diversion;
    this.diversions.push(diversion);
  }

  private endString() {
    this.inString = false;
    if (this.isKey) {
      (this.stack.at(-1) as Extract<Frame, { kind: 'object' }>).key = this.pieces.join('');
      this.pieces = [];
      this.expect = 'colon';
      return;
    }
    const divert = this.divert;
    if (divert) {
      this.divert = undefined;
      const last = divert.decoder.end();
      divert.pass.end(last.length ? last : undefined);
      const top = this.stack.at(-1) as Extract<Frame, { kind: 'object' }>;
      const key = top.key!;
      // A stand-in is set once the file is kept (end()); until then the field holds a placeholder.
      this.value('');
      divert.into = { object: top.value, key };
      return;
    }
    const text = this.pieces.join('');
    this.pieces = [];
    this.value(text);
  }

  private endToken() {
    const token = this.token;
    this.token = '';
    if (token === 'true') return this.value(true);
    if (token === 'false') return this.value(false);
    if (token === 'null') return this.value(null);
    if (!NUMBER.test(token)) throw invalidJson();
    this.value(Number(token));
  }
}

/** Characters of a number or of true, false and null. */
const isTokenChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || c === 0x45;
