import type { DocumentFormat } from '../../../db/vocabulary.js';

/** The media type each document format is served as. */
export const MEDIA_TYPES: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
};

/**
 * A file name for a download: the title in lower-case ASCII words joined by hyphens (`Harbour House — Schedule` →
 * `harbour-house-schedule`), at most 80 characters, then the extension. Safe in any folder and any header.
 */
export function fileNameFor(title: string, format: DocumentFormat): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${words || 'document'}.${format}`;
}
