import { z } from 'zod';

/** A calendar date, YYYY-MM-DD, that exists (a valid-until date, a date wanted, a day a delivery came). */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD, e.g. "2026-12-31".')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    { message: 'That date does not exist; send a real one as YYYY-MM-DD.' },
  )
  .describe('A calendar date, YYYY-MM-DD.');
