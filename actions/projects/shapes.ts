import { PROJECT_LISTING } from '../../src/domain/projects/projects.js';

/** Fake ids for examples of the projects and sections domains: the shape the API mints, no meaning. */
export const EXAMPLE = {
  projectId: '0000000000000000000000000a',
  sectionId: '0000000000000000000000000c',
  otherSectionId: '0000000000000000000000000e',
  memberId: '0000000000000000000000000m',
} as const;

/** The projects the caller can reach: declared with the projects' sorts (PROJECT_LISTING). */
export const ProjectListQuery = PROJECT_LISTING.input;
