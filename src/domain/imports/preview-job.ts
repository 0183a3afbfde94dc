import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { startOperation } from '../../jobs/operations.js';
import { type PreviewInput, previewImport } from './preview.js';
import { assertStatus, loadImport } from './records.js';

/** The operation kind a create_import preview runs as (jobs.ts defines its job). */
export const IMPORT_PREVIEW_KIND = 'import_preview';

export type PreviewJob = PreviewInput;

/**
 * A preview's name for what it showed: the import and its version after the preview. Committing with it applies exactly
 * that preview, and is refused (VERSION_CONFLICT) once the import was previewed again with another mapping.
 */
export const previewIdOf = (importId: string, version: number) => `${importId}.${version}`;

const PREVIEW_ID = /^([0-9A-Za-z_-]{1,64})\.([1-9][0-9]{0,8})$/;

/** The import and version a previewId names, or a validation failure saying where previewIds come from. */
export function parsePreviewId(previewId: string): { importId: string; version: number } {
  const m = PREVIEW_ID.exec(previewId);
  if (!m) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'previewId is the one a preview answered (its result.previewId, like "01j9…x.2"); run create_import with phase "preview" to get one.',
      { errors: [{ path: 'previewId', message: 'Not a previewId.' }] },
    );
  }
  return { importId: m[1]!, version: Number(m[2]) };
}

/** Accepts a preview as an operation, refusing at once an import that cannot be previewed in its state. */
export async function startPreview(ctx: ActionContext, input: PreviewJob, action: string) {
  assertStatus(
    await loadImport(ctx, input.projectId, input.importId),
    ['uploaded', 'previewed', 'failed'],
    'previewed',
  );
  ctx.unchanged();
  return startOperation(ctx, { kind: IMPORT_PREVIEW_KIND, action, scope: 'projects:write', input, total: 1 });
}

/** The preview job's body, in its one commit: the preview as preview_schedule_import answers it, with its previewId. */
export async function previewAccepted(ctx: ActionContext, input: PreviewJob) {
  const preview = await previewImport(ctx, input);
  return { previewId: previewIdOf(preview.import.id, preview.import.version), ...preview };
}
