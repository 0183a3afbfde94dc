import { z } from 'zod';
import { asFlag, asJson, defineRecord, field, type TableOf } from '../kit/record.js';

/** A line-code prefix, as studio settings and code schemes take it. */
export const CodePrefix = z
  .string()
  .regex(/^[A-Z][A-Z0-9]{0,7}$/, 'A code prefix is 1 to 8 capital letters or digits, starting with a letter, e.g. FF.')
  .describe('Line codes are the prefix, a hyphen and a number: FF-001.');

const Keyword = z.string().trim().min(1).max(60);

/** A code scheme: how the studio numbers lines (FF-001), and which sections it applies to. */
export const CODE_SCHEME_RECORD = defineRecord({
  name: 'CodeScheme',
  description: 'A code scheme: how the studio numbers lines (FF-001), and which sections it applies to.',
  table: 'code_schemes',
  owner: 'studio',
  archivable: true,
  fields: {
    prefix: field(
      CodePrefix.describe(
        'Capital letters or digits, starting with a letter, e.g. LT: line codes are the prefix, a hyphen and a number (LT-001, LT-002 …).',
      ),
      { write: 'always', required: true },
    ),
    name: field(z.string().trim().min(1).max(200).describe('What the scheme numbers, e.g. "Lighting".'), {
      write: 'always',
      required: true,
    }),
    keywords: field(
      z
        .array(Keyword)
        .max(20)
        .refine((ks) => new Set(ks.map((k) => k.toLowerCase())).size === ks.length, 'Give each keyword once.')
        .describe(
          'Section-title keywords, e.g. ["Lighting"]: a line created in a section whose title contains one (ignoring case) takes this scheme. [] for none.',
        ),
      { write: 'always', default: [] as string[], codec: asJson<string[]>() },
    ),
    isDefault: field(
      z
        .boolean()
        .describe(
          "The studio's one default scheme: lines in sections no keyword matches take it, and studio settings show its prefix. Setting true makes this the default; the previous default stops being one.",
        ),
      { write: 'always', column: 'is_default', default: false, codec: asFlag },
    ),
  },
  computed: {
    example: z.string().describe('The first code a project gets with it, e.g. LT-001.'),
  },
});

export type CodeSchemeRow = TableOf<typeof CODE_SCHEME_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    code_schemes: CodeSchemeRow;
  }
}
