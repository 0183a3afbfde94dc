import { DOCUMENT_DELIVERY_RECORD, DOCUMENT_RECORD } from '../../src/domain/documents/record.js';

export { DeliveryStatus, DocumentFormat, DocumentKind } from '../../src/domain/documents/record.js';

/** A document as the API answers it (declared once, in src/domain/documents/record.ts). */
export const ProjectDocument = DOCUMENT_RECORD.output;

/** A delivery as the API answers it (declared once, in src/domain/documents/record.ts). */
export const DocumentDelivery = DOCUMENT_DELIVERY_RECORD.output;
