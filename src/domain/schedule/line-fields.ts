import { LINE_RECORD, type LineFieldsInput, type LineUpdate } from './record.js';

/**
 * Left only for src/domain/schedule/lines.ts, its last importer (being reworked on another branch): every other caller
 * uses LINE_RECORD.patchColumns and LineFieldsInput from record.ts. Delete this file when lines.ts does the same.
 */
export type { LineFieldsInput };

/** Maps the API's line fields onto columns; only the fields present in the input are returned (merge-patch semantics). */
export const lineColumns = (input: LineFieldsInput): LineUpdate => LINE_RECORD.patchColumns(input);
