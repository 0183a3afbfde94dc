import type { ActionContext } from './context.js';
import { type Call, type Connection, controlFieldName, controlValue } from './call.js';
import { ServiceError } from './errors.js';
import { apartFields, entityTags, etagOf, guardedPart, versionInTag } from './etag.js';
import type { ResolvedRef } from './guards.js';
import { shownTo } from './pricing-visibility.js';
import { checkedOutput } from './output-check.js';

/**
 * What a caller sent to guard a write: a procedure's version (an integer), or the entity-tags of If-Match / ifMatch
 * (RFC 9110 syntax, quotes included). `*` (which would skip the check this API exists to make) answers
 * PRECONDITION_REQUIRED; text that is not an entity-tag (a tag without its quotes), or a weak tag (If-Match compares
 * strongly), is malformed input, not a conflict: nothing changed the record.
 */
export function parsePrecondition(value: unknown, field = 'If-Match'): { version: number } | { tags: string[] } {
  if (typeof value === 'number') return { version: value };
  const text = typeof value === 'string' ? value.trim() : '';
  const problem = (message: string) =>
    new ServiceError(
      'VALIDATION_FAILED',
      `${message} Send the ETag exactly as your last read returned it, quotes included (like "4-1c9e0a7b").`,
      { errors: [{ path: 'ifMatch', message }] },
    );
  if (text === '*') {
    throw new ServiceError(
      'PRECONDITION_REQUIRED',
      `${field === 'If-Match' ? 'If-Match: *' : `${field} "*"`} is not accepted: every write names the version it was made against. Send the ETag from your last read.`,
    );
  }
  const tags = entityTags(text);
  if (!tags) throw problem(`${JSON.stringify(text.slice(0, 40))} is not an ETag: an ETag is quoted text.`);
  if (tags.some((t) => t.weak)) throw problem(`A weak ETag cannot guard a write (${field} compares strongly).`);
  return { tags: tags.map((t) => t.tag) };
}

/**
 * The expected-version check, before the handler runs: a procedure's version must be the record's; If-Match must
 * hold a tag of the record's version (answered here, before any body is read), and is then compared whole
 * (`requireCurrentTag`). `refs` are the records ownership has already read, versions included.
 */
export async function checkVersion(call: Call, conn: Connection, studioId: string, refs: readonly ResolvedRef[]) {
  const { action, input, caller } = call;
  const versioning = action.versioned!;
  const info = versioning.entity;
  let row: { version: number } | undefined;
  if ('versionOf' in versioning) {
    // A record found by more than one id (the caller's own layout of a table): nothing saved yet is its defaults, at 1.
    if (!caller) throw new ServiceError('INTERNAL', `${action.name} reads its version for a caller, and has none.`);
    row = { version: (await versioning.versionOf(conn.queryRow, input, caller)) ?? 1 };
  } else {
    // idField 'studioId' names the caller's own studio: a token acts in exactly one studio, so the id is never sent.
    const id = versioning.idField === 'studioId' ? studioId : (input[versioning.idField] as string);
    const known = refs.find((r) => r.entity === info && r.id === id && typeof r.row.version === 'number');
    row = known
      ? { version: known.row.version as number }
      : await conn.queryRow<{ version: number }>(`SELECT version FROM ${info.table} WHERE id = ?`, id);
  }
  if (!row) throw new ServiceError('NOT_FOUND');
  const sent = controlValue(call, 'version');
  const field = controlFieldName(action, 'version', call.request.surface);
  if (sent === undefined) throw versionRequired(call, field);
  const expected = parsePrecondition(sent, field);
  const matches =
    'version' in expected
      ? expected.version === row.version
      : expected.tags.some((tag) => versionInTag(tag) === row.version);
  if (!matches) throw versionConflict(info.name, row.version);
}

function versionRequired(call: Call, field: string): ServiceError {
  const entity = call.action.versioned!.entity.name;
  return new ServiceError(
    'PRECONDITION_REQUIRED',
    call.action.kind !== 'resource'
      ? `Send ${field}: the ${entity}'s version from your last read.`
      : field === 'If-Match'
        ? `Send the ETag from your last read of this ${entity} in the If-Match header.`
        : `Send ${field}: the etag from your last read of this ${entity}, exactly as returned, quotes included (e.g. "4-1c9e0a7b").`,
  );
}

function versionConflict(entity: string, currentVersion: number): ServiceError {
  return new ServiceError(
    'VERSION_CONFLICT',
    `The ${entity} has changed since you read it (it is at version ${currentVersion}); read it again, reapply your change and report.`,
    { extra: { currentVersion } },
  );
}

/**
 * If-Match compared whole (RFC 9110's strong comparison): one of the sent tags must be the ETag the record's read
 * (`etagFrom`) answers now, as this caller sees it, on the write's own connection. The version already matched, so a
 * mismatch here is another record's tag, a forged digest, or a body that changed without the version moving.
 */
export async function requireCurrentTag(call: Call, ctx: ActionContext) {
  const { action, input } = call;
  const sent = controlValue(call, 'version');
  const read = action.etagFrom;
  if (!read || typeof sent !== 'string') return;
  const readInput = read.fullInput.parse(
    Object.fromEntries(Object.keys(read.fullInput.shape).flatMap((f) => (f in input ? [[f, input[f]]] : []))),
  );
  // The read's answer exactly as the read itself answers it, so the tag compared is the tag the read gave.
  const output = checkedOutput(read, await read.handler(ctx, readInput as never), call.rt.log);
  const current = etagOf(shownTo(call.caller, read, output), read.http?.etagIgnores, apartFields(read.output));
  const { tags } = parsePrecondition(sent) as { tags: string[] };
  // Fields kept apart from the version (a line's ordering) are not compared: no write of the record can overwrite them.
  if (current === undefined || !tags.map(guardedPart).includes(guardedPart(current))) {
    throw versionConflict(action.versioned!.entity.name, (current ? versionInTag(current) : undefined) ?? 0);
  }
}
