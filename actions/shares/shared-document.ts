import { z } from 'zod';
import { clientDocumentOf, Piece, PiecePhotograph } from '../client-document/records.js';
import { named, Timestamp } from '../../src/core/values.js';
import { ShareIntent } from './records.js';

/**
 * The shared document: what a share link's holder reads, by the token alone. Its own schema in the client's register
 * (pieces, never lines; client prices only, as the settings allow), whose photographs carry URLs that work without
 * any credential but the token. test/client-document/margin-leak.test.ts walks it with the client document's.
 */

const SharedPhotograph = PiecePhotograph.extend({
  url: z
    .string()
    .describe(
      'The display size (upright, long edge at most 1568 px), relative to the server: /s/<token>/photographs/<id>?variant=display. Works by the token alone while the link works.',
    ),
  thumbnailUrl: z
    .string()
    .describe('The same photograph at thumbnail size (long edge at most 320 px): ?variant=thumbnail.'),
}).describe('A photograph of the piece as the latest mint froze it, with the URLs that serve it by the token.');
named(SharedPhotograph, 'SharedPhotograph');

const SharedPiece = Piece.extend({
  photographs: z
    .array(SharedPhotograph)
    .describe('Cover first, then in display order, as the latest mint froze them: empty until the studio first mints.'),
}).describe('A piece: one row of the shared document.');
named(SharedPiece, 'SharedDocumentPiece');

export const SharedDocument = z
  .strictObject({
    intent: ShareIntent,
    expiresAt: Timestamp.nullable().describe('When the link stops working; null: until the studio revokes it.'),
    document: clientDocumentOf(SharedPiece).describe(
      "The studio's client document as its settings show it: the studio's name and branding, title and introduction, sections of pieces as they are now (piecesAsOf), photographs as the studio last minted them (photographsAsOf), removed pieces and totals. Prices only when the settings show them.",
    ),
  })
  .describe("What a share link opens: the studio's client document, and what the link allows until when.");
named(SharedDocument, 'SharedDocument');
