import { z } from 'zod';
import { PROJECT_RECORD } from '../../src/domain/projects/record.js';
import { Section } from '../sections/records.js';
import { named } from '../../src/core/values.js';

/** A job, as every projects action answers it (declared once in PROJECT_RECORD). */
export const Project = PROJECT_RECORD.output;

export const ProjectWithSections = Project.extend({
  sections: z.array(Section).describe('Active sections, in order.'),
});
named(ProjectWithSections, 'ProjectWithSections');
