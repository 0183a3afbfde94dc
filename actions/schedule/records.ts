import { keptApartFromVersion } from '../../src/core/etag.js';
import { LINE_RECORD } from '../../src/domain/schedule/record.js';

/** A schedule line (`items` in paths), as LINE_RECORD declares it. Pricing fields marked there are absent for callers without pricing:read. */
export const Line = LINE_RECORD.output;
// Purchase orders and deliveries move a line's ordering, never its version: see LineOrdering for the ETag's rule.
keptApartFromVersion(Line, ['ordering']);

/** A line's fields as a create takes them: heading required, the rest optional. */
export const LineCreateFields = LINE_RECORD.createInput;
/** The editable fields of a line as a merge patch takes them (update and bulk update), each optional. */
export const LinePatchFields = LINE_RECORD.patchInput;
