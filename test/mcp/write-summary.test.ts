import { describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { trpc } from '../helpers/clients.js';

let app: TestApp;
openTestApp((opened) => ({ app } = opened));

describe('a write whose result exceeds 8,000 bytes', () => {
  it('answers with the touched records and their new versions, within the budget, instead of a page it cannot continue', async () => {
    const lines = (await trpc(app.url, app.token).schedule.listScheduleLines.query({ projectId: app.projectId })).items;
    expect(lines.length).toBeGreaterThan(40);
    const client = await app.mcp();
    const res = await client.callTool({
      name: 'call_action',
      arguments: {
        name: 'bulk_update_schedule_lines',
        arguments: {
          input: {
            projectId: app.projectId,
            lines: lines.map((l) => ({ lineId: l.id, expectedVersion: l.version, patch: { finish: 'Limewash' } })),
          },
        },
      },
    });
    expect(res.isError).toBeFalsy();
    expect(JSON.stringify(res.structuredContent).length).toBeLessThanOrEqual(8000);
    const summary = (
      res.structuredContent as { result_summary: { records: Array<{ id: string; version: number }>; total: number } }
    ).result_summary;
    expect(summary.total).toBe(lines.length);
    const shown = new Map(summary.records.map((r) => [r.id, r.version]));
    expect(shown.size).toBeGreaterThan(0);
    for (const l of lines) if (shown.has(l.id)) expect(shown.get(l.id)).toBe(l.version + 1);
  });
});
