import type { SharedClientDocument } from '../../domain/shares/shared-document.js';
import { clientWords, localeOf } from '../../domain/documents/client-words.js';
import { PRICE_STATE_WORDS } from '../../domain/documents/figures.js';
import { html, type Html } from './html.js';
import { specificationRows } from '../../domain/specifications/client-text.js';
import { formatDate, formatMoney, formatPropertyValue } from './format.js';
import { masthead } from './masthead.js';

/**
 * The shared document as HTML, as a studio presents it: a masthead with the studio's mark, the title and a summary
 * (rooms, pieces, total, what is still to be confirmed), a room index that stays at the top of the screen while
 * scrolling, an <h2> per room with its pieces, removed pieces and totals. Every piece is one grid: photographs (only
 * when it has some, so no empty frame), then its details under labels of one fixed width (every label of a piece
 * starts and ends at the same x), then its price, right-aligned. The DOM is in reading order and the layout never
 * reorders it, so keyboard order is reading order too.
 */

type Doc = SharedClientDocument['document'];
type Section = Doc['sections'][number];
type Piece = Section['pieces'][number];
type Photograph = Piece['photographs'][number];
type Money = { amount4: string; currency: string };
type Words = ReturnType<typeof clientWords>;

/** The columns a piece may show, as the client reads their names. */
const COLUMN_LABELS: ReadonlyArray<[field: string, label: string]> = [
  ['supplier', 'Supplier'],
  ['brand', 'Brand'],
  ['productCode', 'Product code'],
  ['finish', 'Finish'],
  ['dimensions', 'Dimensions'],
  ['leadTimeDays', 'Lead time'],
];

const sectionId = (index: number) => `section-${index + 1}`;
const isToConfirm = (p: Piece) => p.priceState === 'tbc' || p.priceState === 'poa';

/** Widths the browser may pick from: the thumbnail's (about; only the choice depends on it) and the display size's. */
function photograph(p: Photograph, first: boolean): Html {
  const thumbWidth = Math.min(p.width, Math.max(1, Math.round((p.width * 320) / Math.max(p.width, p.height))));
  const sizes = first ? '(min-width: 48rem) 16rem, 100vw' : '(min-width: 48rem) 5rem, 25vw';
  return html`<a href="${p.url}"><img src="${first ? p.url : p.thumbnailUrl}" srcset="${p.thumbnailUrl} ${thumbWidth}w, ${p.url} ${p.width}w" sizes="${sizes}" width="${p.width}" height="${p.height}" alt="${p.alt}" loading="lazy" decoding="async"></a>`;
}

const rows = (list: ReadonlyArray<[string, string]>) => list.map(([dt, dd]) => html`<dt>${dt}</dt><dd>${dd}</dd>`);

/** The piece's shown columns and custom properties; nothing when it shows none. */
function facts(piece: Piece, words: Words): Html | null {
  const list: Array<[string, string]> = [];
  const fields = piece as unknown as Record<string, unknown>;
  for (const [field, label] of COLUMN_LABELS) {
    const value = fields[field];
    if (value === null || value === undefined || value === '') continue;
    list.push([label, field === 'leadTimeDays' ? words.leadTime(value as number) : String(value)]);
  }
  for (const p of piece.properties) {
    const text = formatPropertyValue(p.value);
    if (text) list.push([p.name, text]);
  }
  return list.length ? html`<dl class="details">${rows(list)}</dl>` : null;
}

/** Each of the piece's specifications under its name, with the fields the studio lets the client see. */
function specifications(piece: Piece): Html | null {
  const specs = piece.specifications ?? [];
  if (!specs.length) return null;
  return html`${specs.map((s) => {
    const list = specificationRows(s);
    return html`<section class="specification"><h4>${s.name}</h4>${list.length ? html`<dl class="details">${rows(list)}</dl>` : null}</section>`;
  })}`;
}

/** Quantity, and the client's unit price and total when the settings show prices (or the words for their state). */
function figures(piece: Piece, words: Words): Html {
  const list: Array<[string, string]> = [['Quantity', words.quantity(piece.quantity.amount4, piece.quantity.unit)]];
  let total: Html | null = null;
  if (piece.priceState === 'set') {
    if (piece.unitPrice) list.push(['Unit price', formatMoney(piece.unitPrice as Money)]);
    if (piece.total) total = html`<dt>Total</dt><dd class="amount">${formatMoney(piece.total as Money)}</dd>`;
  } else if (piece.priceState) {
    total = html`<dt>Price</dt><dd class="state">${PRICE_STATE_WORDS[piece.priceState]}</dd>`;
  }
  return html`<dl class="figures">${rows(list)}${total}</dl>`;
}

function piece(p: Piece, id: string, words: Words): Html {
  const photos = p.photographs.length
    ? html`<div class="photographs">${p.photographs.map((ph, i) => photograph(ph, i === 0))}</div>`
    : null;
  return html`<li class="piece"><article class="${photos ? 'piece-grid' : 'piece-grid no-photographs'}" aria-labelledby="${id}">
${photos}<div class="piece-body">
<div class="piece-head"><h3 id="${id}">${p.heading}</h3>${p.reference ? html`<p class="reference">Ref. ${p.reference}</p>` : null}</div>
${p.description ? html`<p class="description">${p.description}</p>` : null}
${facts(p, words)}${specifications(p)}</div>
${figures(p, words)}
</article></li>`;
}

function section(s: Section, index: number, words: Words): Html {
  const id = sectionId(index);
  return html`<section class="document-section room" aria-labelledby="${id}">
<div class="room-head"><h2 id="${id}">${s.title}</h2><p class="room-count">${words.count(s.pieces.length, 'piece')}</p></div>
<ol class="pieces">${s.pieces.map((p, i) => piece(p, `${id}-piece-${i + 1}`, words))}</ol>
${s.total ? html`<p class="section-total">Total for ${s.title}: <span class="amount">${formatMoney(s.total as Money)}</span></p>` : null}
</section>`;
}

/** At the top: how many rooms and pieces, which are still to be confirmed (linked to them), and the total. */
function summary(doc: Doc, words: Words): Html {
  const t = doc.totals;
  const pending = doc.sections.flatMap((s, si) =>
    s.pieces.flatMap((p, pi) => (isToConfirm(p) ? [{ p, href: `#${sectionId(si)}-piece-${pi + 1}` }] : [])),
  );
  const items: Array<[string, string, string]> = [
    [
      'In this schedule',
      `${words.count(doc.sections.length, 'room')} · ${words.count(t.pieceCount, 'piece')}`,
      'count',
    ],
  ];
  if (doc.showPrices) {
    const still = pending.length ? words.count(pending.length, 'piece') : 'Nothing';
    items.push(['To be confirmed', still, 'pending']);
  }
  if (t.total) items.push(['Total', formatMoney(t.total as Money), 'total']);
  return html`<section class="summary" aria-label="Summary">
<dl class="summary-figures">${items.map(([dt, dd, kind]) => html`<div class="${kind}"><dt>${dt}</dt><dd>${dd}</dd></div>`)}</dl>
${
  pending.length
    ? html`<p class="note">Still to be confirmed, and not in the total: ${pending.map(
        ({ p, href }, i) => html`${i ? ', ' : ''}<a href="${href}">${p.heading}</a>`,
      )}.</p>`
    : null
}
</section>`;
}

/** The rooms as links, in a bar that stays at the top of the screen (phone and desktop alike); hidden in print. */
function roomIndex(doc: Doc, words: Words): Html | null {
  if (doc.sections.length < 2) return null;
  return html`<nav class="rooms" aria-label="Rooms"><ol>${doc.sections.map(
    (s, i) =>
      html`<li><a href="#${sectionId(i)}" aria-label="${s.title}, ${words.count(s.pieces.length, 'piece')}">${s.title} <span class="count">${s.pieces.length}</span></a></li>`,
  )}<li><a href="#totals">Totals</a></li></ol></nav>`;
}

function removed(doc: Doc): Html | null {
  if (!doc.removedPieces.length) return null;
  return html`<section class="document-section" aria-labelledby="removed">
<h2 id="removed">Removed pieces</h2>
<p class="note">These pieces were on the schedule and have been taken off it.</p>
<ul class="removed">${doc.removedPieces.map(
    (r) =>
      html`<li>${r.reference ? html`<span class="reference">${r.reference}</span> ` : null}${r.heading} <span class="removed-when">(removed ${formatDate(r.removedAt)})</span></li>`,
  )}</ul>
</section>`;
}

function totals(doc: Doc, words: Words): Html {
  const t = doc.totals;
  const toConfirm = t.piecesToConfirm
    ? html`<p class="note">${words.count(t.piecesToConfirm, 'piece is', 'pieces are')} still to be confirmed or priced on application, and not in the total.</p>`
    : null;
  return html`<section class="document-section totals" aria-labelledby="totals">
<h2 id="totals">Totals</h2>
<dl class="figures"><dt>Pieces</dt><dd>${words.count(t.pieceCount, 'piece')}</dd>${t.total ? html`<dt>Total</dt><dd class="amount">${formatMoney(t.total as Money)}</dd>` : null}</dl>
${toConfirm}
</section>`;
}

/** The page's body: masthead, the document, and a colophon saying whose it is and how long the link works. */
export function documentBody(shared: SharedClientDocument): Html {
  const doc = shared.document;
  const words = clientWords(localeOf(doc.currency));
  const until = shared.expiresAt
    ? `This link works until ${formatDate(shared.expiresAt)}.`
    : 'This link works until the studio withdraws it.';
  return html`${masthead(doc.studioName, doc.branding.logoText)}
${roomIndex(doc, words)}
<main>
<div class="title-block">
<h1>${doc.title}</h1>
${doc.introduction ? html`<p class="introduction">${doc.introduction}</p>` : null}
</div>
${summary(doc, words)}
${doc.sections.map((s, i) => section(s, i, words))}
${removed(doc)}
${totals(doc, words)}
</main>
<footer class="colophon">
<p>Prepared for you by ${doc.studioName}${doc.showPrices ? `; prices in ${doc.currency}` : ''}.${doc.photographsAsOf ? ` Photographs as of ${formatDate(doc.photographsAsOf)}.` : ''}</p>
<p>${until} Anyone who has it can open this page, so please keep it to yourself.</p>
</footer>`;
}
