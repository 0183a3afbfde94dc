import { z } from 'zod';
import { REVISION_STATES } from '../../../db/vocabulary.js';
import { publicMoney } from '../../core/schema-marks.js';
import { boundedRatio, Money, named } from '../../core/values.js';

/** Money the client sees on an estimate (client prices, tax, totals): any member may read it. */
export const ShownMoney = publicMoney(Money);

/** A line's tax rate: 0 % to 100 %, as a scale-4 ratio ("2000" = 20 %). */
export const TaxRate = named(
  boundedRatio(10_000n, 'A tax rate').describe('"2000" = 20 %; between 0 % and 100 %.'),
  'TaxRate',
);

/** A deposit as a share of the total including tax: 0 % to 100 %. */
export const DepositPercent = named(
  boundedRatio(10_000n, 'A deposit').describe('Of the total including tax: "3000" = 30 %; between 0 % and 100 %.'),
  'DepositPercent',
);

/** A calendar date, YYYY-MM-DD, that exists: the kit's, one definition for every document. */
export { CalendarDate } from '../kit/calendar-date.js';

export const RevisionState = named(
  z
    .enum(REVISION_STATES)
    .describe(
      'current: the one the client may decide; superseded: a later revision replaced it; decided; voided: the estimate was voided; expired: current but read after its validUntil date.',
    ),
  'RevisionState',
);

/** A SHA-256 digest in lower-case hex: what a decision names to prove which content it decided. */
export const Digest = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'A digest is 64 lower-case hex characters, as get_estimate_revision gives it.')
  .describe("SHA-256 (hex) of the revision's canonical content.");
