import { z } from 'zod';
import {
  LENGTH_UNITS,
  type LengthUnit,
  SPECIFICATION_CATEGORIES,
  SPECIFICATION_CLIENT_FIELDS,
} from '../../../db/vocabulary.js';
import { digitsUpTo } from '../../core/values.js';
import { asJson, type ColumnsCodec, defineRecord, field, type TableOf } from '../kit/record.js';

/** A length as a scale-4 integer string, from 0 to 100,000 of its unit ("20000000" = 2,000.0000). */
const Length4 = z
  .string()
  .regex(
    new RegExp(digitsUpTo(1_000_000_000n)),
    'A length is a scale-4 integer string from "0" to "1000000000" (100,000 of its unit), e.g. "20000000" for 2000 mm: digits only, no decimal point.',
  );

/** Width, depth and height in one unit; a measure not known is null, and at least one is given. */
export const Dimensions = z
  .strictObject({
    unit: z.enum(LENGTH_UNITS).describe('The unit all three are in.'),
    width4: Length4.nullable().describe('Side to side, scale 4: "20000000" with mm = 2000 mm.'),
    depth4: Length4.nullable().describe('Front to back, scale 4.'),
    height4: Length4.nullable().describe('Floor to top, scale 4.'),
  })
  .refine((d) => d.width4 !== null || d.depth4 !== null || d.height4 !== null, {
    message: 'Give at least one of width4, depth4 and height4, or send dimensions: null.',
  })
  .describe('Width, depth and height as scale-4 integer strings in one unit (never floating point).');
export type SpecificationDimensions = z.output<typeof Dimensions>;

/**
 * A link a specification carries: a web address, http:// or https:// only and without credentials in it, so no
 * `javascript:`, `data:` or `file:` link ever reaches a page or a document that shows it.
 */
const WebAddress = z
  .string()
  .max(2000)
  .refine((s) => {
    if (!/^https?:\/\/\S+$/i.test(s) || !URL.canParse(s)) return false;
    const u = new URL(s);
    return u.username === '' && u.password === '';
  }, 'A link is a web address starting http:// or https:// (no user name or password in it), e.g. https://example.com/sofa.pdf.');

export const SpecificationLink = z
  .strictObject({
    label: z.string().trim().min(1).max(200).describe('What it is, e.g. "Product page" or "Care guide (PDF)".'),
    url: WebAddress,
  })
  .describe('A labelled web address: the maker’s page, a data sheet, a care guide.');

const Words = (what: string) => z.array(z.string().trim().min(1).max(200)).max(30).describe(what);

const ClientFields = z
  .array(z.enum(SPECIFICATION_CLIENT_FIELDS))
  .max(SPECIFICATION_CLIENT_FIELDS.length)
  .refine((a) => new Set(a).size === a.length, 'Name each client-visible field once.')
  .describe(
    "The fields the client may see when the specification is attached to a line (its name always shows): any of category, manufacturer, model, sku, description, dimensions, materials, finishes, colours, careNotes, installationNotes, leadTimeDays, links. Notes are the studio's own and never shown.",
  );

/** The fields shown to the client when a create leaves clientFields out: what a piece is made of and looks like. */
export const DEFAULT_CLIENT_FIELDS = [
  'description',
  'dimensions',
  'materials',
  'finishes',
  'colours',
  'careNotes',
] as const;

/** Dimensions kept in four columns (three lengths and their unit), so nothing is ever a float in a row either. */
const dimensionColumns: ColumnsCodec<
  SpecificationDimensions | null,
  { width4: string | null; depth4: string | null; height4: string | null; length_unit: LengthUnit | null }
> = {
  toColumns: (d) => ({
    width4: d?.width4 ?? null,
    depth4: d?.depth4 ?? null,
    height4: d?.height4 ?? null,
    length_unit: d?.unit ?? null,
  }),
  fromRow: (row) =>
    row.length_unit === null
      ? null
      : { unit: row.length_unit, width4: row.width4, depth4: row.depth4, height4: row.height4 },
};

/** A specification: a product sheet in the studio's library, attached to lines in any project. */
export const SPECIFICATION_RECORD = defineRecord({
  name: 'Specification',
  description:
    "A product specification sheet in the studio's library: what the product is, who makes it, its size, materials, finishes and care, and which of those the client may see. Attached to schedule lines in any project.",
  table: 'specifications',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(z.string().trim().min(1).max(200).describe('As the studio calls it, e.g. "Solid oak dining table".'), {
      write: 'always',
      required: true,
    }),
    category: field(z.enum(SPECIFICATION_CATEGORIES).describe('What kind of product it is.'), {
      write: 'always',
      required: true,
    }),
    manufacturer: field(z.string().trim().max(200).nullable().describe('Who makes it, e.g. "Carl Hansen & Søn".'), {
      write: 'always',
    }),
    model: field(z.string().trim().max(200).nullable().describe('The maker’s model name, e.g. "CH24 Wishbone".'), {
      write: 'always',
    }),
    sku: field(z.string().trim().max(100).nullable().describe('The maker’s product code or SKU.'), { write: 'always' }),
    description: field(z.string().max(20_000).describe('What the product is, in prose.'), {
      write: 'always',
      default: '',
    }),
    dimensions: field(Dimensions.nullable(), { write: 'always', columns: dimensionColumns }),
    materials: field(Words('What it is made of, e.g. ["solid oak", "steel"].'), {
      write: 'always',
      default: [] as string[],
      codec: asJson<string[]>(),
    }),
    finishes: field(Words('Surface finishes, e.g. ["oiled", "brushed brass"].'), {
      write: 'always',
      default: [] as string[],
      codec: asJson<string[]>(),
    }),
    colours: field(Words('Colours, e.g. ["natural", "charcoal"].'), {
      write: 'always',
      default: [] as string[],
      codec: asJson<string[]>(),
    }),
    careNotes: field(z.string().max(20_000).describe('How to look after it.'), { write: 'always', default: '' }),
    installationNotes: field(z.string().max(20_000).describe('What fitting it needs.'), {
      write: 'always',
      default: '',
    }),
    leadTimeDays: field(z.int().min(0).max(3650).nullable().describe('Usual days from order to delivery.'), {
      write: 'always',
    }),
    links: field(z.array(SpecificationLink).max(20).describe('Web addresses: product page, data sheet, care guide.'), {
      write: 'always',
      default: [] as Array<z.output<typeof SpecificationLink>>,
      codec: asJson<Array<z.output<typeof SpecificationLink>>>(),
    }),
    clientFields: field(ClientFields, {
      write: 'always',
      default: [...DEFAULT_CLIENT_FIELDS] as Array<(typeof SPECIFICATION_CLIENT_FIELDS)[number]>,
      codec: asJson<Array<(typeof SPECIFICATION_CLIENT_FIELDS)[number]>>(),
    }),
    notes: field(
      z.string().max(20_000).describe("The studio's own notes (trade terms, contacts): never shown to a client."),
      {
        write: 'always',
        default: '',
      },
    ),
  },
  computed: {
    lineCount: z.int().min(0).describe('Active schedule lines it is attached to, in any project.'),
  },
});

export type SpecificationRow = TableOf<typeof SPECIFICATION_RECORD>;
export type PresentedSpecification = ReturnType<typeof SPECIFICATION_RECORD.present>;

/** An attachment of a specification to a line, at a 1-based position among the line's specifications. */
export interface LineSpecificationRow {
  line_id: string;
  specification_id: string;
  project_id: string;
  position: number;
  attached_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    specifications: SpecificationRow;
    line_specifications: LineSpecificationRow;
  }
}
