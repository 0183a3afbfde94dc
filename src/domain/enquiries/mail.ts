import { displayAmount, parseAmount4 } from '../../core/money.js';
import type { EnquiryItemValue } from './record.js';

/**
 * The email an enquiry sends each supplier: its subject, and its text with the items as a table. What the studio
 * buys is all it says: no client price, markup or client name (the supplier is the studio's, the client is not), so
 * nothing here reads the project, its client or any price.
 */

/** Text fit for a mail header: no line breaks or other control characters from what people typed. */
export const headerText = (s: string) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a header must not carry.
    .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A table cell: one line, bounded, so a long description keeps the table readable in any mail client. */
const cell = (s: string | null, max = 60) => {
  const one = headerText(s ?? '');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** "4 December 2026": a date no reader can take the wrong way round. */
export function longDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  const month = new Date(Date.UTC(y!, m! - 1, d!)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${d} ${month} ${y}`;
}

/** A quantity as people read it: 2, 12.5, 3.25 (no trailing zeros after the point). */
function quantityText(q: EnquiryItemValue['quantity']) {
  const exact = displayAmount(parseAmount4(q.amount4), 4).replace(/\.?0+$/, '');
  return `${exact} ${q.unit}`;
}

/** The items as a plain-text table: number, code, item, details, quantity, in columns padded to fit. */
export function itemTable(items: readonly EnquiryItemValue[]): string {
  const head = ['No.', 'Code', 'Item', 'Details', 'Quantity'];
  const rows = items.map((i) => [
    String(i.number),
    cell(i.code, 20),
    cell(i.description),
    cell(i.details),
    cell(quantityText(i.quantity), 30),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(widths[c]!))
      .join(' | ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)].join('\n');
}

export interface EnquiryMailFacts {
  enquiryId: string;
  title: string;
  message: string;
  replyBy: string;
  items: readonly EnquiryItemValue[];
  supplierName: string;
  studioName: string;
}

/** The subject and text of the email to one supplier. */
export function enquiryMail(f: EnquiryMailFacts): { subject: string; text: string } {
  const by = longDate(f.replyBy);
  const subject = headerText(`Price and lead time enquiry: ${f.title} (reply by ${by})`).slice(0, 250);
  const text = [
    `Dear ${headerText(f.supplierName)},`,
    '',
    ...(f.message ? [f.message, ''] : []),
    `Please quote your trade price per unit and lead time for each item below, and how long the price holds, by ${by}. If you cannot supply an item, please say so.`,
    '',
    itemTable(f.items),
    '',
    `Our reference: ${f.enquiryId}`,
    '',
    'With thanks,',
    headerText(f.studioName),
    '',
  ].join('\n');
  return { subject, text };
}
