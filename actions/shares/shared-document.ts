import { z } from 'zod';
import { clientDocumentOf, Piece, PiecePhotograph } from '../client-document/records.js';
import { named, Timestamp } from '../../src/core/values.js';
import { ShareIntent } from './records.js';
import { ClientEstimateRevision } from '../../src/domain/estimates/client-revision.js';
import { EstimateDecision } from '../../src/domain/estimates/decide.js';

/** The decision on a decide link's revision, as its holder reads it (the verified address is the studio's to see). */
const SharedDecision = EstimateDecision.pick({
  outcome: true,
  pieces: true,
  accepted: true,
  deposit: true,
  comment: true,
  deciderName: true,
  decidedAt: true,
}).describe('The decision made on this revision: the answers, the accepted figures, who typed their name and when.');
named(SharedDecision, 'SharedEstimateDecision');

const SharedEstimateRevision = z
  .strictObject({
    revision: ClientEstimateRevision,
    decision: SharedDecision.nullable().describe('Null until the revision is decided.'),
  })
  .describe('The one estimate revision a decide link names, as the client sees it, with its decision once made.');
named(SharedEstimateRevision, 'SharedEstimateRevision');

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
    document: clientDocumentOf(SharedPiece)
      .nullable()
      .describe(
        "A view link's document: the studio's client document as its settings show it: the studio's name and branding, title and introduction, sections of pieces as they are now (piecesAsOf), photographs as the studio last minted them (photographsAsOf), removed pieces and totals. Prices only when the settings show them. Null for a decide link.",
      ),
    estimateRevision: SharedEstimateRevision.nullable().describe(
      "A decide link's estimate revision, and the decision on it once made (decide_estimate makes it). Null for a view link.",
    ),
  })
  .describe('What a share link opens (a client document to view, or an estimate revision to decide), and until when.');
named(SharedDocument, 'SharedDocument');
