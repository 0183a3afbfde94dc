import { z } from 'zod';
import { CODE_SCHEME_RECORD } from '../../src/domain/codes/record.js';
import { Id } from '../../src/core/values.js';

/** A code scheme as the API answers it (declared once, in src/domain/codes/record.ts). */
export const CodeScheme = CODE_SCHEME_RECORD.output;

export const SuggestedCode = z.strictObject({
  code: z.string().describe('The code the next line would get, e.g. LT-004. Nothing is reserved.'),
  codeId: Id.nullable().describe('The scheme it comes from.'),
  prefix: z.string(),
  schemeName: z.string().nullable(),
  matchedKeyword: z
    .string()
    .nullable()
    .describe("The scheme's keyword the section title contains; null when the default applies or codeId was given."),
  reason: z.string().describe('Why this scheme, in a sentence.'),
});
