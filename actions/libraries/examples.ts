/** Fake ids for examples of the libraries domain: the shape the API mints, no meaning. */
export const EX = {
  libraryId: '0000000000000000000000000l',
  productId: '0000000000000000000000000p',
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
  supplierId: '0000000000000000000000000s',
} as const;
