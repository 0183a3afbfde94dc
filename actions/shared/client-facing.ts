import type { z } from 'zod';
import { ClientDocument, ClientDocumentVersion, ClientDocumentVersionPage } from '../client-document/records.js';
import { SharedDocument } from '../shares/shared-document.js';
import { ClientEstimateRevision } from '../../src/domain/estimates/client-revision.js';

/**
 * Every client-facing output schema: test/client-document/margin-leak.test.ts walks each for names and values that
 * would carry the studio's margin. A new one joins with one line. (Kept apart from the schemas' own files: the shared
 * document is built from the client document's, so a list in either would import the other.)
 */
export const CLIENT_FACING_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  ClientDocument,
  ClientDocumentVersion,
  ClientDocumentVersionPage,
  SharedDocument,
  ClientEstimateRevision,
};
