import { Link } from 'wouter';
import { formatDay } from '../../../lib/format';
import type { RouterOutputs } from '../../../lib/router-types';
import { formatBytes } from '../format';
import { Badge, Table, td, th } from '../ui';

type Row = RouterOutputs['admin']['dietPlans']['list']['items'][number];

export function DietPlanTable({ items, showClient = true }: { items: Row[]; showClient?: boolean }) {
  return (
    <Table label="Diet plans">
      <thead>
        <tr>
          <th className={th}>Plan</th>
          {showClient && <th className={th}>Client</th>}
          <th className={th}>Period</th>
          <th className={th}>Kind</th>
          <th className={th}>Version</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100" data-testid="diet-plan-rows">
        {items.map((p) => (
          <tr key={p.id}>
            <td className={td}>
              <Link href={`/diet-plans/${p.id}`} className="font-semibold text-brand-800 hover:underline">
                {p.title}
              </Link>
            </td>
            {showClient && (
              <td className={td} data-label="Client">
                <Link href={`/clients/${p.client.id}`} className="hover:underline">
                  {p.client.fullName}
                </Link>
              </td>
            )}
            <td className={`${td} whitespace-nowrap`} data-label="Period">
              {formatDay(p.from)} – {formatDay(p.to)}
            </td>
            <td className={td} data-label="Kind">
              {p.source === 'composed' ? <Badge tone="teal">Composed</Badge> : <Badge tone="slate">Uploaded PDF</Badge>}
              <span className="block text-xs text-slate-500">{formatBytes(p.bytes)}</span>
            </td>
            <td className={td} data-label="Version">
              v{p.version}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
