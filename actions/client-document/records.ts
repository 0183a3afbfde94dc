import { z } from 'zod';
import { PROPERTY_KINDS } from '../../db/vocabulary.js';
import { publicMoney } from '../../src/core/schema-marks.js';
import { Amount4, Currency, Id, Money, named, Timestamp, ValueState } from '../../src/core/values.js';
import {
  CLIENT_DOCUMENT_SETTINGS_RECORD,
  CLIENT_DOCUMENT_VERSION_RECORD,
  ClientDocumentColumn,
} from '../../src/domain/client-document/record.js';
import { Dimensions, SpecificationLink } from '../../src/domain/specifications/record.js';
import { SPECIFICATION_CATEGORIES } from '../../db/vocabulary.js';

/**
 * The client document's own schema: a projection in the client's register, never a filtered line. A row is a piece;
 * no field name under it says line, item, plate, trade, markup, margin or cost, and no field carries a trade price,
 * markup or margin (test/client-document/margin-leak.test.ts walks these schemas and their values to hold that).
 */

export { ClientDocumentColumn };

const ShownPrice = publicMoney(Money);

export const PiecePhotograph = z
  .strictObject({
    id: Id,
    width: z.int().min(1).describe('Pixels of the display image (upright, long edge at most 1568).'),
    height: z.int().min(1),
    alt: z.string().describe("Text for the image: the piece's heading."),
  })
  .describe(
    'A photograph of the piece: in the live document as the latest mint froze it, in a preview as it is now, in a version as that mint froze it.',
  );

const PiecePropertyValue = z.union([
  z.string(),
  z.boolean(),
  z.array(z.string()),
  ShownPrice,
  z.strictObject({ amount4: Amount4 }),
]);

const PieceProperty = z
  .strictObject({
    name: z.string().describe('The custom property, e.g. "Fire rating".'),
    kind: z.enum(PROPERTY_KINDS),
    value: PiecePropertyValue.describe(
      'By kind: text, long_text, url, date (YYYY-MM-DD): a string; yes_no: true or false; single_choice: the chosen label; multiple_choice: the chosen labels; number: { amount4 }; money: { amount4, currency }.',
    ),
  })
  .describe(
    "A client-visible custom property the settings chose, with this piece's value; pieces without a value leave it out.",
  );

/** A specification on a piece: its name, and only the fields the studio marked client-visible that hold something. */
const PieceSpecification = z
  .strictObject({
    name: z.string(),
    category: z.enum(SPECIFICATION_CATEGORIES).optional(),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    sku: z.string().optional(),
    description: z.string().optional(),
    dimensions: Dimensions.optional(),
    materials: z.array(z.string()).optional(),
    finishes: z.array(z.string()).optional(),
    colours: z.array(z.string()).optional(),
    careNotes: z.string().optional(),
    installationNotes: z.string().optional(),
    leadTimeDays: z.int().min(0).optional(),
    links: z.array(SpecificationLink).optional(),
  })
  .describe(
    "A product specification of the piece from the studio's library: its name and the fields the studio lets the client see; any other field is absent.",
  );
named(PieceSpecification, 'ClientDocumentSpecification');

const pricesNote = 'Absent when the settings hide prices (showPrices false).';

export const Piece = z
  .strictObject({
    reference: z.string().nullable().describe("The studio's reference for the piece, e.g. FF-012."),
    heading: z.string(),
    description: z.string(),
    quantity: z.strictObject({
      amount4: Amount4.describe('A scale-4 integer string: "20000" = 2.'),
      unit: z.string().nullable().describe('The unit\'s name, e.g. "each" or "m²".'),
    }),
    priceState: ValueState.optional().describe(
      `Whether the client price is set, tbc, poa, included or by_others. ${pricesNote}`,
    ),
    unitPrice: ShownPrice.nullable()
      .optional()
      .describe(
        `The client unit price rounded to the currency's minor unit for display; null unless priceState is set. ${pricesNote}`,
      ),
    total: ShownPrice.nullable()
      .optional()
      .describe(
        `Quantity × the unrounded client unit price, rounded once; it need not equal quantity × unitPrice. Null unless priceState is set. ${pricesNote}`,
      ),
    supplier: z
      .string()
      .nullable()
      .optional()
      .describe("The supplier's name; only when the settings show the supplier column."),
    brand: z.string().nullable().optional().describe('Only when the settings show the brand column.'),
    productCode: z.string().nullable().optional().describe('Only when the settings show the productCode column.'),
    finish: z.string().nullable().optional().describe('Only when the settings show the finish column.'),
    dimensions: z.string().nullable().optional().describe('Only when the settings show the dimensions column.'),
    leadTimeDays: z.int().nullable().optional().describe('Only when the settings show the leadTime column.'),
    properties: z.array(PieceProperty).describe('Values of the custom properties the settings show, in their order.'),
    specifications: z
      .array(PieceSpecification)
      .optional()
      .describe("The piece's product specifications, in the studio's order; absent when it has none."),
    photographs: z
      .array(PiecePhotograph)
      .describe(
        'Cover first, then in display order. In get_project_client_document these are as the latest mint froze them: empty until the project is first minted (mint to show photographs).',
      ),
  })
  .describe('A piece: one row of the client document.');
named(Piece, 'ClientDocumentPiece');

/**
 * The client document's shape around its pieces: one definition for every document in the client's register (the
 * client document, and the shared document, whose pieces add the URLs their photographs are served at).
 */
export const clientDocumentOf = <P extends z.ZodType>(piece: P) =>
  z.strictObject({
    title: z.string().describe("The settings' title, else the project's name."),
    introduction: z.string().describe('Opening prose from the settings; may be empty.'),
    projectName: z.string(),
    studioName: z.string().describe("As the settings give it, else the studio's branding display name, else its name."),
    branding: z.strictObject({
      accentColour: z.string().describe("#rrggbb: the settings' colour, else the studio's."),
      logoText: z.string().nullable().describe("The studio's logo text; null: none."),
    }),
    currency: Currency,
    showPrices: z.boolean().describe('False: no price field has a value anywhere in the document; they are absent.'),
    columns: z.array(ClientDocumentColumn).describe('The columns each piece shows, in order.'),
    piecesAsOf: Timestamp.describe(
      'When the pieces were read: live in get_project_client_document, the mint time in a version.',
    ),
    photographsAsOf: Timestamp.nullable().describe(
      'When the photographs shown were frozen by minting; null before the first mint, when pieces show no photographs.',
    ),
    sections: z
      .array(
        z.strictObject({
          title: z.string(),
          pieces: z.array(piece),
          total: ShownPrice.optional().describe(`Σ piece totals from exact factors, rounded once. ${pricesNote}`),
        }),
      )
      .describe('Sections in schedule order; a section with no pieces is left out.'),
    removedPieces: z
      .array(
        z.strictObject({
          reference: z.string().nullable(),
          heading: z.string(),
          removedAt: Timestamp,
        }),
      )
      .describe('Pieces the studio removed from the schedule, most recent first: removal is visible to the client.'),
    totals: z.strictObject({
      pieceCount: z.int().min(0),
      total: ShownPrice.optional().describe(
        `Σ of every priced piece's exact total, rounded once: need not equal the sum of section or piece totals. ${pricesNote}`,
      ),
      piecesToConfirm: z
        .int()
        .min(0)
        .optional()
        .describe(`Pieces priced tbc or poa, which the total does not cover yet. ${pricesNote}`),
    }),
  });

export const ClientDocument = clientDocumentOf(Piece).describe(
  "A project's client document: its schedule in the client's register (pieces, client prices only), shaped by the client document settings.",
);
named(ClientDocument, 'ClientDocument');

/** A minted version's summary as the API answers it (declared once, in src/domain/client-document/record.ts). */
export const ClientDocumentVersionSummary = CLIENT_DOCUMENT_VERSION_RECORD.output;

export const ClientDocumentVersion = ClientDocumentVersionSummary.extend({
  document: ClientDocument.describe('The document exactly as minted: pieces and photographs as of mintedAt.'),
}).describe('A minted client document version: immutable, numbered per project.');
named(ClientDocumentVersion, 'ClientDocumentVersion');

export const ClientDocumentVersionPage = z
  .strictObject({
    versions: z.array(ClientDocumentVersionSummary),
    nextCursor: z.string().nullable().describe('Pass as cursor to read the next page; null on the last page.'),
  })
  .describe("A page of a project's minted client document versions.");

/** A project's client document settings as the API answers them (declared once, in src/domain/client-document/record.ts). */
export const ClientDocumentSettings = CLIENT_DOCUMENT_SETTINGS_RECORD.output;
