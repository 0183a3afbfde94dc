import { z } from 'zod';
import { TEMPLATE_RECORD } from '../../src/domain/templates/record.js';
import { named } from '../../src/core/values.js';

/** A project template as the API answers it (declared once, in src/domain/templates/record.ts). */
export const ProjectTemplate = TEMPLATE_RECORD.output;

/** A template in a list: the record without its starting lines, its section titles in their place. */
export const ProjectTemplateSummary = TEMPLATE_RECORD.output
  .omit({ sections: true })
  .extend({ sectionTitles: z.array(z.string()).describe('Its sections, in order.') })
  .describe('A project template in a list: get_project_template gives its starting lines.');
named(ProjectTemplateSummary, 'ProjectTemplateSummary');
