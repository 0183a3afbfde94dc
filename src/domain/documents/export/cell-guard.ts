/**
 * The one guard every text cell of an export passes through, headings included, in CSV and XLSX alike (CSV or
 * formula injection, OWASP): text a spreadsheet would run as a formula is shown as text instead.
 *
 * A spreadsheet starts a cell at the start of the text and, when it reads the file with another separator than the
 * one it was written with (Excel in a locale whose list separator is `;`, a reader splitting at tabs or pipes, or one
 * that loses track of quotes and ends a row at a line break), after any `,` `;` tab `|` or line break inside it. Each
 * such start gets a single quote when what follows it, past whitespace, control and format characters (a zero-width
 * space) and double quotes, begins a formula: `=`, `+`, `-`, `@` or their full-width forms. The text's own start is
 * also quoted when it is a tab, a line break or NUL (OWASP, ASVS 1.2.10). A quote is the smallest visible change
 * that keeps the rest of the text exactly as written: `=1+2` is exported as `'=1+2`, `;=1+1` as `;'=1+1`.
 */
const FORMULA = '=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20';
/** What a spreadsheet may pass over before a cell's first meaningful character. */
const SKIPPED = '[\\s\\p{Cc}\\p{Cf}"]*';

const STARTS_FORMULA = new RegExp(`^(?:[\\t\\r\\n\\0]|${SKIPPED}[${FORMULA}])`, 'u');
const SPLITS_INTO_FORMULA = new RegExp(`([,;|\\t\\r\\n])(?=${SKIPPED}[${FORMULA}])`, 'gu');

export function guardedCellText(text: string): string {
  const inner = text.replace(SPLITS_INTO_FORMULA, "$1'");
  return STARTS_FORMULA.test(text) ? `'${inner}` : inner;
}
