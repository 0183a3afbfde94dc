import { z } from 'zod';
import { PROJECT_STATUSES } from '../../db/vocabulary.js';
import { priced } from '../../src/core/schema-marks.js';
import { Section } from '../sections/records.js';
import { Currency, Id, named, Ratio, Timestamp } from '../../src/core/values.js';

export const Project = z
  .strictObject({
    id: Id,
    name: z.string(),
    reference: z.string().nullable().describe("The studio's job reference."),
    clientId: Id.nullable().describe('The client record the project is for (get_client); null when none is linked.'),
    clientName: z
      .string()
      .nullable()
      .describe("The linked client's current name; without a linked client, the plain label the project was given."),
    currency: Currency,
    defaultMarkup: priced(Ratio)
      .nullable()
      .optional()
      .describe('Needs pricing:read. Null: the studio default applies.'),
    status: z.enum(PROJECT_STATUSES),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable(),
  })
  .describe('A job.');
named(Project, 'Project');

export const ProjectWithSections = Project.extend({
  sections: z.array(Section).describe('Active sections, in order.'),
});
named(ProjectWithSections, 'ProjectWithSections');
