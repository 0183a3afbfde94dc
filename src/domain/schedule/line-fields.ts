import type { PatchValues } from '../kit/record.js';
import { LINE_RECORD, type LineUpdate } from './record.js';

export type { PricedInput } from '../kit/priced-columns.js';

/** A line's fields as callers send them (create_schedule_line, update, bulk, paste, imports), as LINE_RECORD declares them. */
export type LineFieldsInput = PatchValues<typeof LINE_RECORD.spec.fields>;

/** Maps the API's line fields onto columns; only the fields present in the input are returned (merge-patch semantics). */
export const lineColumns = (input: LineFieldsInput): LineUpdate => LINE_RECORD.patchColumns(input);
