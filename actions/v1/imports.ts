import { z } from 'zod';
import type { ActionContext } from '../../src/core/context.js';
import { defineAction } from '../../src/core/define-action.js';
import { ServiceError } from '../../src/core/errors.js';
import { startImportCommit } from '../../src/domain/imports/commit.js';
import { parsePreviewId, startPreview } from '../../src/domain/imports/preview-job.js';
import { loadImport } from '../../src/domain/imports/records.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { MappingRequest } from '../imports/records.js';
import { EX } from '../imports/shapes.js';
import { Operation } from '../operations/records.js';
import { ImportId, ImportMappingId, ProjectId, SectionId } from '../shared/refs.js';

/**
 * The seed's one import resource: `POST /projects/{projectId}/imports` in two phases, each an operation (202 and
 * Location). The phases are the imports procedures' preview and commit, reached by one path as the seed has it.
 */
const input = z.strictObject({
  projectId: ProjectId,
  phase: z
    .enum(['preview', 'commit'])
    .describe('preview (with importId) shows how the rows would become lines; commit (with previewId) applies it.'),
  importId: ImportId.optional().describe('phase preview: the import upload_import_file returned.'),
  previewId: z
    .string()
    .max(80)
    .optional()
    .describe("phase commit: the previewId of the preview operation's result (that exact preview is applied)."),
  sheet: z.string().min(1).max(200).optional().describe('phase preview: another sheet of the workbook, by name.'),
  mapping: MappingRequest.optional(),
  savedMappingId: ImportMappingId.optional().describe('phase preview: a saved mapping (list_import_mappings) as base.'),
  defaultSectionId: SectionId.optional().describe('phase preview: where lines go that nothing else places.'),
  skipRowsWithErrors: z.boolean().optional().describe('phase commit: leave out rows with errors; default false.'),
});
type Input = z.output<typeof input>;

const PREVIEW_ONLY = ['importId', 'sheet', 'mapping', 'savedMappingId', 'defaultSectionId'] as const;
const COMMIT_ONLY = ['previewId', 'skipRowsWithErrors'] as const;

/** A field of the other phase, or a missing one of this phase, refused with where it belongs. */
function checkPhaseFields(sent: Input) {
  const [own, other, needed] =
    sent.phase === 'preview' ? [PREVIEW_ONLY, COMMIT_ONLY, 'importId'] : [COMMIT_ONLY, PREVIEW_ONLY, 'previewId'];
  const stray = other.find((f) => sent[f] !== undefined);
  if (stray) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${stray} belongs to phase ${sent.phase === 'preview' ? 'commit' : 'preview'}; leave it out of a ${sent.phase}.`,
      {
        errors: [{ path: stray, message: `Not taken with phase ${sent.phase}.` }],
      },
    );
  }
  if (sent[needed as (typeof own)[number]] === undefined) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      sent.phase === 'preview'
        ? 'A preview needs importId: upload the file with upload_import_file first and send the id it returned.'
        : "A commit needs previewId: the previewId in the result of this import's preview operation.",
      { errors: [{ path: needed, message: 'Required.' }] },
    );
  }
}

async function commitPreview(ctx: ActionContext, sent: Input) {
  const { importId, version } = parsePreviewId(sent.previewId!);
  const record = await loadImport(ctx, sent.projectId, importId);
  if (record.version !== version) {
    throw new ServiceError(
      'VERSION_CONFLICT',
      `The import has changed since that preview (it is at version ${record.version}): preview it again and commit the new previewId.`,
      { extra: { currentVersion: record.version } },
    );
  }
  return startImportCommit(
    ctx,
    { projectId: sent.projectId, importId, skipRowsWithErrors: sent.skipRowsWithErrors },
    'create_import',
  );
}

export const createImport = defineAction({
  name: 'create_import',
  kind: 'resource',
  effect: 'mutation',
  domain: 'imports',
  summary: 'Import a spreadsheet into a project: phase preview, then phase commit, each an operation.',
  description:
    'After upload_import_file: send phase "preview" with importId (and optionally a mapping by column letter, sheet, savedMappingId, defaultSectionId). The operation\'s result is the preview: the mapping used, counts, the sections and suppliers it would make or reuse, the first rows as lines with every problem by row and column, and a previewId. Then phase "commit" with that previewId applies exactly that preview, all of it or nothing; its result says the lines, sections and suppliers made. Both answer 202 with the operation (Location /v1/operations/{id}): poll get_operation until it succeeds. A preview with unreadable cells is refused at commit (IMPORT_HAS_ERRORS) unless skipRowsWithErrors; a previewId the import has moved past is VERSION_CONFLICT (preview again). Needs an Idempotency-Key. The imports procedures (preview_schedule_import, commit_schedule_import) are the same steps, the preview answered at once.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  startsOperation: true,
  input,
  output: Operation,
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_WRONG_STATE', 'IMPORT_HAS_ERRORS', 'VERSION_CONFLICT'],
  http: { method: 'POST', path: '/projects/{projectId}/imports', status: 202 },
  example: {
    projectId: EX.projectId,
    phase: 'preview',
    importId: EX.importId,
    idempotencyKey: '6e2b9c4a-1d7f-4a3e-8b5c-9f0a1e2d3c4b',
  },
  handler: (ctx, sent) => {
    checkPhaseFields(sent);
    if (sent.phase === 'commit') return commitPreview(ctx, sent);
    const { phase: _p, previewId: _v, skipRowsWithErrors: _s, ...preview } = sent;
    return startPreview(ctx, { ...preview, importId: sent.importId! }, 'create_import');
  },
});
