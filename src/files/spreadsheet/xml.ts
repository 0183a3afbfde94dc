import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { damagedWorkbook, MAX_XML_RUN_BYTES, MAX_XML_TAG_BYTES, runTooLong } from './reading-limits.js';

/**
 * A workbook part's XML, parsed as its bytes inflate, in bounded memory. An XML parser gathers each text node, tag,
 * comment or CDATA section whole before it reports it, so 2 GiB of blank space, or one 100 MB string, would be
 * gathered into one string before anyone could look at it. XmlGuard sees the bytes first and refuses any one piece
 * larger than a cell could need (MAX_XML_RUN_BYTES; a tag, MAX_XML_TAG_BYTES). OOXML parts carry no DTD (ISO/IEC
 * 29500-2 forbids one), so a <!DOCTYPE> is refused as damage rather than parsed.
 */

const LT = 0x3c;
const GT = 0x3e;
const BANG = 0x21;
const QUESTION = 0x3f;
const DASH = 0x2d;
const BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** Where the guard is: in text, just past '<', in a tag, past '<!', past '<!-', in a comment, CDATA or instruction. */
const State = { Text: 0, Open: 1, Tag: 2, Bang: 3, CommentStart: 4, Comment: 5, CData: 6, Pi: 7 } as const;
type State = (typeof State)[keyof typeof State];

/** Watches a part's bytes, chunk by chunk, for a piece of XML larger than its bound. */
export class XmlGuard {
  private state: State = State.Text;
  private run = 0;
  private quote = 0;
  /** The two bytes before this one, for the ends of comments (-->), CDATA (]]>) and processing instructions (?>). */
  private last = 0;
  private beforeLast = 0;

  scan(bytes: Uint8Array) {
    // Kept in locals while the chunk is scanned (it is every byte of the part), and stored back at the end.
    let { state, run, quote, last, beforeLast } = this;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (state === State.Text) {
        // Text runs to the next '<': found natively, then counted in one step.
        const lt = bytes.indexOf(LT, i);
        const end = lt < 0 ? n : lt;
        run += end - i;
        if (run > MAX_XML_RUN_BYTES) throw runTooLong();
        if (lt < 0) break;
        state = State.Open;
        run = 0;
        i = lt + 1;
        continue;
      }
      const b = bytes[i++]!;
      run++;
      if (state === State.Tag) {
        if (quote) {
          if (b === quote) quote = 0;
        } else if (b === GT) {
          state = State.Text;
          run = 0;
        } else if (b === QUOTE || b === APOSTROPHE) quote = b;
        if (run > MAX_XML_TAG_BYTES) throw runTooLong();
        continue;
      }
      switch (state) {
        case State.Open:
          state = b === BANG ? State.Bang : b === QUESTION ? State.Pi : b === GT ? State.Text : State.Tag;
          if (state === State.Text) run = 0;
          break;
        case State.Bang:
          if (b === DASH) state = State.CommentStart;
          else if (b === BRACKET) state = State.CData;
          else throw damagedWorkbook();
          last = beforeLast = 0;
          break;
        case State.CommentStart:
          if (b !== DASH) throw damagedWorkbook();
          state = State.Comment;
          break;
        default: {
          // A comment, CDATA section or processing instruction, to its end.
          if (run > MAX_XML_RUN_BYTES) throw runTooLong();
          const ends =
            b === GT &&
            (state === State.Comment
              ? last === DASH && beforeLast === DASH
              : state === State.CData
                ? last === CLOSE_BRACKET && beforeLast === CLOSE_BRACKET
                : last === QUESTION);
          if (ends) {
            state = State.Text;
            run = 0;
          }
          beforeLast = last;
          last = b;
        }
      }
    }
    this.state = state;
    this.run = run;
    this.quote = quote;
    this.last = last;
    this.beforeLast = beforeLast;
  }
}

export interface Tag {
  /** The element's name without its namespace prefix (`x:row` is `row`). */
  name: string;
  attributes: Record<string, string>;
}

export interface XmlHandlers {
  open?(tag: Tag): void;
  text?(text: string): void;
  close?(name: string): void;
  /** Read after each chunk: true ends the reading there (the rest of the part is never inflated). */
  done?(): boolean;
}

const local = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Parses a part's bytes as they come, guarded, calling the handlers (which may throw a refusal). Malformed XML is a
 * damaged workbook. Returns true when it read to the end, false when `done` stopped it.
 */
export async function parseXml(bytes: AsyncIterable<Buffer>, on: XmlHandlers): Promise<boolean> {
  const guard = new XmlGuard();
  const decoder = new StringDecoder('utf8');
  const parser = new SaxesParser({ position: false });
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  if (on.open) {
    const open = on.open;
    parser.on('opentag', (t) => {
      if (!failed) open({ name: local(t.name), attributes: t.attributes as Record<string, string> });
    });
  }
  if (on.text) {
    const text = on.text;
    parser.on('text', (t) => {
      if (!failed) text(t);
    });
  }
  if (on.close) {
    const close = on.close;
    parser.on('closetag', (t) => {
      if (!failed) close(local(t.name));
    });
  }
  for await (const chunk of bytes) {
    guard.scan(chunk);
    parser.write(decoder.write(chunk));
    if (failed) throw damagedWorkbook();
    if (on.done?.()) return false;
  }
  parser.write(decoder.end());
  parser.close();
  if (failed) throw damagedWorkbook();
  return true;
}
