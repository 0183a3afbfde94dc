import { CLIENT_RECORD } from '../../src/domain/clients/record.js';

/** A client as the API answers it (declared once, in src/domain/clients/record.ts). */
export const Client = CLIENT_RECORD.output;
