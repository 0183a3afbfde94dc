import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { CODE_SCHEME } from '../../src/domain/codes/entity.js';
import * as codes from '../../src/domain/codes/schemes.js';
import { CodeId, ProjectId, SectionId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { CODE_SCHEME_RECORD } from '../../src/domain/codes/record.js';
import { CodeScheme, SuggestedCode } from './records.js';

/** Fake ids for examples: the shape the API mints, no meaning. */
const EX = {
  codeId: '0000000000000000000000000k',
  projectId: '0000000000000000000000000a',
  sectionId: '0000000000000000000000000c',
} as const;
const inCode = { codeId: CodeId };

export const listCodes = defineAction({
  name: 'list_codes',
  kind: 'procedure',
  effect: 'query',
  domain: 'codes',
  summary: "List the studio's code schemes (FF, LT …) with their section keywords.",
  description:
    "The studio's code schemes, the numbering of line codes (FF-001 furniture & fittings, LT-001 lighting …), in prefix order (or sort by name or createdAt; '-' for descending). Each shows its section-title keywords and whether it is the default: a new line takes the scheme whose keyword its section's title contains (ignoring case; the longest keyword wins), else the default. Find one by a piece of its name, prefix or keywords with q; archived schemes are left out unless archived is include or only. To see the code a particular line would get, use suggest_next_code.",
  scope: 'reference:read',
  input: codes.SCHEME_LISTING.input,
  output: page(CodeScheme),
  errors: [],
  example: { q: 'light' },
  handler: (ctx, input) => codes.listCodes(ctx, input),
});

export const getCode = defineAction({
  name: 'get_code',
  kind: 'procedure',
  effect: 'query',
  domain: 'codes',
  summary: 'Read one code scheme with its prefix, keywords and version.',
  description:
    'The code scheme (archived or not) with its prefix, name, section-title keywords, whether it is the default, an example code, and its version for update_code and archive_code.',
  scope: 'reference:read',
  input: z.strictObject(inCode),
  output: CodeScheme,
  errors: ['NOT_FOUND'],
  example: { codeId: EX.codeId },
  handler: (ctx, input) => codes.getCode(ctx, input.codeId),
});

export const createCode = defineAction({
  name: 'create_code',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'codes',
  summary: 'Add a code scheme, e.g. LT for lines in lighting sections.',
  description:
    'Creates a code scheme: a prefix (unique among the active schemes), a name, and optional section-title keywords. From then on a line created in a section whose title contains one of the keywords (ignoring case) is numbered with this prefix (LT-001, LT-002 … per project); existing lines keep their codes (renumber_schedule_lines applies the schemes to a whole project). isDefault: true makes it the fallback for every other section instead of the current default. Send a fresh commandKey so a retry never creates it twice.',
  scope: 'reference:write',
  keyed: true,
  input: CODE_SCHEME_RECORD.createInput,
  output: CodeScheme,
  errors: [],
  example: {
    prefix: 'JN',
    name: 'Joinery',
    keywords: ['Joinery', 'Built-in'],
    commandKey: '5b2e8c1d-3f4a-4e6b-9c7d-2a1b0f9e8d7c',
  },
  handler: (ctx, input) => codes.createCode(ctx, input),
});

export const updateCode = defineAction({
  name: 'update_code',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'codes',
  summary: "Change a code scheme's prefix, name, keywords, or make it the default.",
  description:
    "A merge patch: send only the fields to change, with expectedVersion from your last read. keywords replaces the whole list. A new prefix applies to lines created afterwards; existing lines keep their codes. isDefault: true makes this the studio's default (the old default stops being one, and the studio settings' code prefix follows); a studio always has one default, so isDefault: false on it is refused. Archived schemes do not change (ARCHIVED).",
  scope: 'reference:write',
  versioned: { entity: CODE_SCHEME, idField: 'codeId' },
  input: CODE_SCHEME_RECORD.patchInput.extend(inCode),
  output: CodeScheme,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { codeId: EX.codeId, expectedVersion: 2, keywords: ['Lighting', 'Lamps'] },
  handler: (ctx, { codeId, ...patch }) => codes.updateCode(ctx, codeId, patch),
});

export const archiveCode = defineAction({
  name: 'archive_code',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'codes',
  summary: 'Archive a code scheme the studio no longer numbers lines with.',
  description:
    'Archives the scheme (never deleted): lines keep the codes it gave them, and new lines in sections that matched its keywords take another matching scheme or the default. Its prefix becomes free for a new scheme, which continues its numbers. The default scheme cannot be archived: make another one the default first with update_code. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'reference:write',
  versioned: { entity: CODE_SCHEME, idField: 'codeId' },
  input: z.strictObject(inCode),
  output: CodeScheme,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { codeId: EX.codeId, expectedVersion: 3 },
  handler: (ctx, input) => codes.archiveCode(ctx, input.codeId),
});

export const suggestNextCode = defineAction({
  name: 'suggest_next_code',
  kind: 'procedure',
  effect: 'query',
  domain: 'codes',
  summary: 'Preview the code the next line in a section (or of a scheme) would get.',
  description:
    "Answers the code the next line would get in a project, without taking it: with sectionId, the code create_line would give a line created in that section (its title picks the scheme, else the default); with codeId instead, the next code of that scheme in the project, which you can pass as code to create_line to number a line with another scheme than its section's. Send projectId and exactly one of sectionId or codeId. Nothing is reserved, so a line created meanwhile may take it first.",
  scope: 'reference:read',
  input: z.strictObject({
    projectId: ProjectId,
    sectionId: SectionId.optional().describe('The section a line would be created in.'),
    codeId: CodeId.optional().describe('A scheme, instead of a section.'),
  }),
  output: SuggestedCode,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EX.projectId, sectionId: EX.sectionId },
  handler: (ctx, input) => codes.suggestNextCode(ctx, input),
});
