import { ImportId, ProjectId } from '../shared/refs.js';

/** An import named inside its project: never addressable outside it (a foreign pair is NOT_FOUND). */
export const inImport = {
  projectId: ProjectId,
  importId: ImportId.describe("The import's id, as upload_import_file returned it."),
};

/** Fake ids for examples: the shape the API mints, no meaning. */
export const EX = {
  projectId: '0000000000000000000000000a',
  importId: '0000000000000000000000000i',
  mappingId: '0000000000000000000000000k',
  sectionId: '0000000000000000000000000c',
} as const;
