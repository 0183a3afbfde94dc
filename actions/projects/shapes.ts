/** Fake ids for examples of the projects and sections domains: the shape the API mints, no meaning. */
export const EXAMPLE = {
  projectId: '0000000000000000000000000a',
  sectionId: '0000000000000000000000000c',
  otherSectionId: '0000000000000000000000000e',
  memberId: '0000000000000000000000000m',
} as const;
