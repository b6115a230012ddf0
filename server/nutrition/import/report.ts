import type { ImportCounts } from '../foods-write.js';

/** A food an import left out: where it was (a CSV's line), its id at the source, its name, and why. */
export type Rejected = { ref: string; name: string; line?: number; problems: string[] };

/** How many rejected rows a report spells out; the count of the rest follows. */
export const REPORT_REJECTED_MAX = 500;

/**
 * An import's outcome as the operator reads it: how many rows, which were rejected (line, id, name
 * and every reason), and what was written (nothing, on a dry run). Foods only, never a person's data.
 */
export function importReport(what: string, report: { total: number; rejected: Rejected[]; written?: ImportCounts }): string {
  const lines: string[] = [];
  const accepted = report.total - report.rejected.length;
  lines.push(`${what}: ${report.total} foods read, ${accepted} sound, ${report.rejected.length} rejected.`);
  for (const r of report.rejected.slice(0, REPORT_REJECTED_MAX)) {
    const where = [r.line !== undefined ? `line ${r.line}` : null, r.ref ? `id ${r.ref}` : null].filter(Boolean).join(', ');
    lines.push(`  ✗ ${where}${r.name ? ` (${r.name})` : ''}: ${r.problems.join('; ')}`);
  }
  if (report.rejected.length > REPORT_REJECTED_MAX)
    lines.push(`  … and ${report.rejected.length - REPORT_REJECTED_MAX} more rejected rows.`);
  const { written } = report;
  if (written) lines.push(`Written: ${written.inserted} new, ${written.updated} updated, ${written.unchanged} unchanged.`);
  else lines.push(`Dry run: nothing was written. Without --dry-run the ${accepted} sound foods would be imported.`);
  return lines.join('\n');
}
