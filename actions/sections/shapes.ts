import { z } from 'zod';

export const SectionTitle = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('The section\'s name, usually a room, e.g. "Living Room".');
