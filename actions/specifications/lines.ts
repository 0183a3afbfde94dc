import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { attachSpecification, detachSpecification } from '../../src/domain/specifications/attachments.js';
import { Line } from '../schedule/records.js';
import { LineId, ProjectId, SpecificationId } from '../shared/refs.js';
import { EX } from './records.js';

const onLine = { projectId: ProjectId, lineId: LineId, specificationId: SpecificationId };

export const attachSpecificationToLine = defineAction({
  name: 'attach_specification_to_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'specifications',
  summary: 'Attach a library specification to a schedule line, or move it in the line’s order.',
  description:
    "Puts the specification on the line at position (1-based among the line's specifications; default last), or moves it there when the line has it already, with the line's expectedVersion. Returns the line, whose specifications list shows it, at its new version; the client document, share page and PDFs show the fields the specification marks client-visible. The same position again changes nothing. A line can have several specifications and one specification many lines. Archived specifications and lines refuse (ARCHIVED); an archived project is frozen.",
  intents: ['put the spec sheet on the sofa', 'link a specification to a piece', 'attach a product spec to an item'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({
    ...onLine,
    position: z.int().min(1).max(1000).optional().describe("Where among the line's specifications; default last."),
  }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EX.projectId, lineId: EX.lineId, specificationId: EX.specificationId, expectedVersion: 4 },
  handler: (ctx, input) => attachSpecification(ctx, input),
});

export const detachSpecificationFromLine = defineAction({
  name: 'detach_specification_from_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'specifications',
  summary: 'Take a specification off a schedule line.',
  description:
    "Removes the specification from the line, with the line's expectedVersion; the line's other specifications close up and the specification stays in the library. Returns the line at its new version. A specification the line does not have is NOT_FOUND. Archived lines refuse (ARCHIVED); an archived project is frozen.",
  intents: ['take the spec off the piece', 'unlink a specification from an item', 'remove a spec from a line'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject(onLine),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EX.projectId, lineId: EX.lineId, specificationId: EX.specificationId, expectedVersion: 5 },
  handler: (ctx, input) => detachSpecification(ctx, input),
});
