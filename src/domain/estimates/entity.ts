import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** An estimate: a project's offer to its client for some of its lines. */
export const ESTIMATE = defineEntity({
  name: 'estimate',
  table: 'estimates',
  owner: { column: 'project_id', level: 'project' },
});

/** A line of an estimate's draft: what the offer says about one schedule line. */
export const ESTIMATE_LINE = defineEntity({
  name: 'estimate line',
  table: 'estimate_lines',
  owner: { column: 'project_id', level: 'project' },
});

/** An issued, numbered and frozen revision of an estimate. */
export const ESTIMATE_REVISION = defineEntity({
  name: 'estimate revision',
  table: 'estimate_revisions',
  owner: { column: 'project_id', level: 'project' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const ESTIMATE_AUDIT_KIND = auditKind('estimate');
export const ESTIMATE_REVISION_AUDIT_KIND = auditKind('estimate_revision');
export const ESTIMATE_DECISION_AUDIT_KIND = auditKind('estimate_decision');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    estimate: typeof ESTIMATE_AUDIT_KIND;
    estimate_revision: typeof ESTIMATE_REVISION_AUDIT_KIND;
    estimate_decision: typeof ESTIMATE_DECISION_AUDIT_KIND;
  }
}
