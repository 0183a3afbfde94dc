import type { SharedClientDocument } from '../../domain/shares/shared-document.js';
import { html, type Html } from './html.js';
import { specificationRows } from '../../domain/specifications/client-text.js';
import {
  formatDate,
  formatDays,
  formatMoney,
  formatPropertyValue,
  formatQuantity,
  PRICE_STATE_WORDS,
} from './format.js';

/**
 * The shared document as HTML: a header with the studio's name, one <h1> (the document's title), an <h2> per
 * section, removed pieces and totals, an <h3> per piece. The DOM is in reading order, and the layout never reorders
 * it, so keyboard order (the photograph links) is reading order too.
 */

type Doc = SharedClientDocument['document'];
type Section = Doc['sections'][number];
type Piece = Section['pieces'][number];
type Photograph = Piece['photographs'][number];
type Money = { amount4: string; currency: string };

/** The columns a piece may show, as the client reads their names. */
const COLUMN_LABELS: ReadonlyArray<[field: string, label: string]> = [
  ['supplier', 'Supplier'],
  ['brand', 'Brand'],
  ['productCode', 'Product code'],
  ['finish', 'Finish'],
  ['dimensions', 'Dimensions'],
  ['leadTimeDays', 'Lead time'],
];

/** Widths the browser may pick from: the thumbnail's (about; only the choice depends on it) and the display size's. */
function photograph(p: Photograph, first: boolean): Html {
  const thumbWidth = Math.min(p.width, Math.max(1, Math.round((p.width * 320) / Math.max(p.width, p.height))));
  const sizes = first ? '(min-width: 48rem) 18rem, 100vw' : '(min-width: 48rem) 4.5rem, 25vw';
  return html`<a href="${p.url}"><img src="${first ? p.url : p.thumbnailUrl}" srcset="${p.thumbnailUrl} ${thumbWidth}w, ${p.url} ${p.width}w" sizes="${sizes}" width="${p.width}" height="${p.height}" alt="${p.alt}" loading="lazy" decoding="async"></a>`;
}

/** The piece's shown columns and custom properties, as a description list; nothing when it shows none. */
function facts(piece: Piece): Html | null {
  const rows: Array<[string, string]> = [];
  const fields = piece as unknown as Record<string, unknown>;
  for (const [field, label] of COLUMN_LABELS) {
    const value = fields[field];
    if (value === null || value === undefined || value === '') continue;
    rows.push([label, field === 'leadTimeDays' ? formatDays(value as number) : String(value)]);
  }
  for (const p of piece.properties) {
    const text = formatPropertyValue(p.value);
    if (text) rows.push([p.name, text]);
  }
  if (!rows.length) return null;
  return html`<dl class="facts">${rows.map(([dt, dd]) => html`<dt>${dt}</dt><dd>${dd}</dd>`)}</dl>`;
}

/** Each of the piece's specifications under its name, with the fields the studio lets the client see. */
function specifications(piece: Piece): Html | null {
  const specs = piece.specifications ?? [];
  if (!specs.length) return null;
  return html`${specs.map((s) => {
    const rows = specificationRows(s);
    return html`<section class="specification"><h4>${s.name}</h4>${rows.length ? html`<dl class="facts">${rows.map(([dt, dd]) => html`<dt>${dt}</dt><dd>${dd}</dd>`)}</dl>` : null}</section>`;
  })}`;
}

/** Quantity, and the client's unit price and total when the settings show prices (or the words for their state). */
function figures(piece: Piece): Html {
  const rows: Array<[string, string]> = [['Quantity', formatQuantity(piece.quantity)]];
  if (piece.priceState === 'set') {
    if (piece.unitPrice) rows.push(['Unit price', formatMoney(piece.unitPrice as Money)]);
    if (piece.total) rows.push(['Total', formatMoney(piece.total as Money)]);
  } else if (piece.priceState) {
    rows.push(['Price', PRICE_STATE_WORDS[piece.priceState]]);
  }
  return html`<dl class="figures">${rows.map(([dt, dd]) => html`<dt>${dt}</dt><dd>${dd}</dd>`)}</dl>`;
}

function piece(p: Piece, id: string): Html {
  const photos = p.photographs.length
    ? html`<div class="photographs">${p.photographs.map((ph, i) => photograph(ph, i === 0))}</div>`
    : null;
  return html`<li class="piece"><article aria-labelledby="${id}">
<div class="piece-head"><h3 id="${id}">${p.heading}</h3>${p.reference ? html`<p class="reference">Ref. ${p.reference}</p>` : null}</div>
<div class="${photos ? 'piece-grid' : 'piece-body'}">${photos}<div>
${p.description ? html`<p class="description">${p.description}</p>` : null}
${facts(p)}${specifications(p)}${figures(p)}</div></div>
</article></li>`;
}

function section(s: Section, index: number): Html {
  const id = `section-${index + 1}`;
  return html`<section class="document-section" aria-labelledby="${id}">
<h2 id="${id}">${s.title}</h2>
<ol class="pieces">${s.pieces.map((p, i) => piece(p, `${id}-piece-${i + 1}`))}</ol>
${s.total ? html`<p class="section-total">Total for ${s.title}: ${formatMoney(s.total as Money)}</p>` : null}
</section>`;
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

function totals(doc: Doc): Html {
  const t = doc.totals;
  const count = `${t.pieceCount} ${t.pieceCount === 1 ? 'piece' : 'pieces'}`;
  const toConfirm = t.piecesToConfirm
    ? html`<p class="note">${t.piecesToConfirm} ${t.piecesToConfirm === 1 ? 'piece is' : 'pieces are'} still to be confirmed or priced on application, and not in the total.</p>`
    : null;
  return html`<section class="document-section totals" aria-labelledby="totals">
<h2 id="totals">Totals</h2>
<dl class="figures"><dt>Pieces</dt><dd>${count}</dd>${t.total ? html`<dt>Total</dt><dd>${formatMoney(t.total as Money)}</dd>` : null}</dl>
${toConfirm}
</section>`;
}

/** The page's body: masthead, the document, and a colophon saying whose it is and how long the link works. */
export function documentBody(shared: SharedClientDocument): Html {
  const doc = shared.document;
  const mark = doc.branding.logoText && doc.branding.logoText !== doc.studioName ? doc.branding.logoText : null;
  const until = shared.expiresAt
    ? `This link works until ${formatDate(shared.expiresAt)}.`
    : 'This link works until the studio withdraws it.';
  return html`<header class="masthead"><div class="masthead-inner">
<p class="studio">${mark ?? doc.studioName}${mark ? html`<span class="studio-name">${doc.studioName}</span>` : null}</p>
</div></header>
<main>
<h1>${doc.title}</h1>
${doc.introduction ? html`<p class="introduction">${doc.introduction}</p>` : null}
${doc.sections.map(section)}
${removed(doc)}
${totals(doc)}
</main>
<footer class="colophon">
<p>Prepared for you by ${doc.studioName}${doc.showPrices ? `; prices in ${doc.currency}` : ''}.${doc.photographsAsOf ? ` Photographs as of ${formatDate(doc.photographsAsOf)}.` : ''}</p>
<p>${until} Anyone who has it can open this page, so please keep it to yourself.</p>
</footer>`;
}
