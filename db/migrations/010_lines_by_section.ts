/**
 * Lines by section and position: a line's place (the next position, closing a gap, moving, counting a section's lines)
 * is asked by section alone, which the project-first index cannot answer without reading every line of the table.
 */
export const name = 'lines_by_section';
export const statements = [`CREATE INDEX lines_by_section ON lines (section_id, position)`];
