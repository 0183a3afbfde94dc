import { z } from 'zod';
import { CodePrefix } from '../studio/shapes.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

const Keyword = z.string().trim().min(1).max(60);

/** What a studio keeps about a code scheme; prefix and name are required to create one. */
export const CodeFields = z.strictObject({
  prefix: CodePrefix.describe('Capital letters or digits, starting with a letter, e.g. LT; lines get LT-001, LT-002 …'),
  name: z.string().trim().min(1).max(200).describe('What the scheme numbers, e.g. "Lighting".'),
  keywords: z
    .array(Keyword)
    .max(20)
    .refine((ks) => new Set(ks.map((k) => k.toLowerCase())).size === ks.length, 'Give each keyword once.')
    .describe(
      'Section-title keywords, e.g. ["Lighting"]: a line created in a section whose title contains one (ignoring case) takes this scheme. [] for none.',
    ),
  isDefault: z
    .boolean()
    .describe(
      "true makes this the studio's default scheme (lines in sections no keyword matches take it); the previous default stops being one.",
    ),
});

export const CodeScheme = z
  .strictObject({
    id: Id,
    prefix: z.string().describe('Line codes are the prefix, a hyphen and a number.'),
    name: z.string(),
    keywords: z.array(z.string()).describe('Section-title keywords that select this scheme.'),
    isDefault: z.boolean().describe('The one scheme a studio falls back to; studio settings show its prefix.'),
    example: z.string().describe('The first code a project gets with it, e.g. LT-001.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; code schemes are never deleted.'),
  })
  .describe('A code scheme: how the studio numbers lines (FF-001), and which sections it applies to.');
named(CodeScheme, 'CodeScheme');

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
