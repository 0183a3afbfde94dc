import type { LengthUnit, SpecificationCategory } from '../../../db/vocabulary.js';
import type { SpecificationDimensions } from './record.js';

/**
 * The words of specification search: how text is cut into terms (a size and its unit stay one term, "2 m" → "2m"),
 * folded (plurals, case, accents), and how a studio's words meet the library's (a "couch" is a sofa, a "sconce" a
 * wall light). The same folding runs on both sides; synonyms only on the query's side, so the index keeps what the
 * studio wrote.
 */

const STOP_WORDS = new Set(
  'a an the to of for in on at by with from and or is are be it its this that i we you my our find me need want some any please'.split(
    ' ',
  ),
);

/** "2 m", "2,000 mm", "1.8m" and "200 cm" as one term each: a number glued to the unit after it. */
const SIZE = /(\d[\d,]*(?:\.\d+)?)\s*(mm|cm|m|in|inch|inches|")(?![a-z])/gi;

/** Terms of a text: sizes kept whole, other words split at anything that is not a letter or digit. */
export function tokenize(text: string): string[] {
  const glued = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(SIZE, (_m, n: string, unit: string) => ` ${n.replace(/,/g, '')}${unitWord(unit)} `);
  return glued.split(/[^\p{L}\p{N}.]+/u).flatMap((t) => {
    // A full stop belongs to a number ("1.8m"), never to a word ("oak." → "oak").
    const word = /\d/.test(t) ? t.replace(/^\.+|\.+$/g, '') : t.replace(/\./g, '');
    return word ? [word] : [];
  });
}

const unitWord = (u: string) => {
  const l = u.toLowerCase();
  return l === 'inch' || l === 'inches' || l === '"' ? 'in' : l;
};

/** Plural and case folding, the same on both sides so "tables", "Table" and "table's" meet. */
export function fold(term: string): string | null {
  let t = term.toLowerCase().replace(/'s$/, '');
  if (/\d/.test(t)) return t;
  if (t.length > 4 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 4 && /(ch|sh|x)es$/.test(t)) t = t.slice(0, -2);
  else if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) t = t.slice(0, -1);
  return t.length < 2 || STOP_WORDS.has(t) ? null : t;
}

/**
 * How a studio says things, mapped to words specifications are written in. Keys and values are folded terms; the
 * query keeps its own word as well, so an exact match still counts most.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  couch: ['sofa'],
  settee: ['sofa'],
  sofa: ['settee'],
  armchair: ['chair', 'lounge'],
  seat: ['chair', 'seating'],
  stool: ['stool', 'seating'],
  desk: ['table', 'desk'],
  light: ['lighting', 'lamp'],
  lamp: ['lighting', 'light'],
  sconce: ['wall', 'light'],
  chandelier: ['pendant', 'lighting'],
  pendant: ['pendant', 'lighting'],
  lighting: ['light'],
  carpet: ['rug'],
  rug: ['carpet'],
  runner: ['rug'],
  curtain: ['drape', 'window'],
  drape: ['curtain'],
  blind: ['window', 'blind'],
  closet: ['wardrobe'],
  wardrobe: ['closet'],
  cupboard: ['cabinet', 'storage'],
  cabinet: ['cupboard', 'storage'],
  sideboard: ['credenza', 'storage'],
  credenza: ['sideboard'],
  dresser: ['chest', 'drawer'],
  faucet: ['tap', 'mixer'],
  tap: ['mixer', 'faucet'],
  sink: ['basin'],
  basin: ['sink'],
  tub: ['bath'],
  bathtub: ['bath'],
  loo: ['wc', 'toilet'],
  toilet: ['wc'],
  handle: ['pull', 'ironmongery'],
  knob: ['handle', 'ironmongery'],
  hardware: ['ironmongery'],
  wallpaper: ['wallcovering'],
  paint: ['paint', 'wall'],
  tile: ['tile'],
  worktop: ['countertop', 'worktop'],
  countertop: ['worktop'],
  gray: ['grey'],
  grey: ['gray'],
  color: ['colour'],
  aluminum: ['aluminium'],
  brass: ['brass'],
  gold: ['brass', 'gilt'],
  walnut: ['walnut'],
  ash: ['ash'],
  timber: ['wood'],
  wooden: ['wood', 'oak', 'walnut', 'ash'],
  wood: ['oak', 'walnut', 'ash', 'timber'],
  stone: ['marble', 'travertine', 'limestone'],
  leather: ['hide'],
  linen: ['linen'],
  velvet: ['velvet'],
  wool: ['wool'],
  outdoor: ['outdoor', 'garden', 'exterior'],
  garden: ['outdoor'],
  bedside: ['nightstand'],
  nightstand: ['bedside'],
};

/** A query term: folded, with the library words it stands for (themselves folded). */
export function queryTerms(term: string): string[] | null {
  const t = fold(term);
  if (!t) return null;
  return Object.hasOwn(SYNONYMS, t) ? [t, ...SYNONYMS[t]!] : [t];
}

/** The words a category is found by, besides its name: what a studio calls things of that kind. */
export const CATEGORY_WORDS: Record<SpecificationCategory, string> = {
  seating: 'seating seat chair sofa armchair stool bench',
  tables: 'table tables',
  storage: 'storage cabinet cupboard shelving sideboard chest',
  beds: 'bed beds headboard',
  lighting: 'lighting light lamp',
  rugs: 'rug rugs carpet',
  textiles: 'textile fabric upholstery cushion throw',
  window_treatments: 'window curtain blind drape',
  wall_finishes: 'wall finish paint wallpaper wallcovering',
  flooring: 'flooring floor',
  tiles: 'tile tiles',
  joinery: 'joinery bespoke carpentry',
  kitchen: 'kitchen',
  sanitaryware: 'sanitaryware bathroom basin bath wc shower',
  ironmongery: 'ironmongery hardware handle hinge',
  appliances: 'appliance appliances',
  accessories: 'accessory accessories object decor',
  artwork: 'artwork art print painting',
  outdoor: 'outdoor garden exterior',
  other: '',
};

/** How many millimetres one of each unit is, scale 4 (an inch is exactly 25.4 mm). */
const MM4_PER_UNIT: Record<LengthUnit, bigint> = { mm: 10_000n, cm: 100_000n, m: 10_000_000n, in: 254_000n };

/** A scale-4 amount of millimetres in `unit`, as a term's number: whole when it is, else up to `places` decimals. */
function amountIn(mm4: bigint, unit: 'mm' | 'cm' | 'm', places: number): string {
  const per = MM4_PER_UNIT[unit];
  const scale = 10n ** BigInt(places);
  const scaled = (mm4 * scale * 2n + per) / (per * 2n); // rounded half up; lengths are never negative
  const whole = scaled / scale;
  const frac = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** A scale-4 amount rounded to a whole number (half up). */
const wholeOf = (amount4: bigint) => (amount4 + 5_000n) / 10_000n;

/**
 * The terms a specification's sizes are found by: each length in mm, cm and m ("2000mm", "200cm", "2m"), so "oak
 * table 2 m" finds a 2000 mm table, and in its own unit when that is inches. Metres keep one decimal ("2.4m"),
 * centimetres none, so a near size does not pass for an exact one.
 */
export function dimensionTerms(d: SpecificationDimensions | null): string {
  if (!d) return '';
  const terms: string[] = [];
  for (const length4 of [d.width4, d.depth4, d.height4]) {
    if (length4 === null) continue;
    const mm4 = (BigInt(length4) * MM4_PER_UNIT[d.unit]) / 10_000n;
    terms.push(`${amountIn(mm4, 'mm', 0)}mm`, `${amountIn(mm4, 'cm', 0)}cm`, `${amountIn(mm4, 'm', 1)}m`);
    if (d.unit === 'in') terms.push(`${wholeOf(BigInt(length4))}in`);
  }
  return terms.join(' ');
}
