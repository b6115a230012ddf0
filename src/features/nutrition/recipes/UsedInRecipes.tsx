import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Card } from '../../../components/ui/Card';
import { useTRPC } from '../../../lib/trpc';

/**
 * The recipes a food is an ingredient of, on its page in the console: a change to its values flows
 * into them, and it cannot be archived while an active one uses it. Nothing shows when none does.
 */
export function UsedInRecipes({ foodId }: { foodId: number }) {
  const trpc = useTRPC();
  const used = useQuery(trpc.recipes.usedIn.queryOptions({ id: foodId }));
  if (!used.data || used.data.length === 0) return null;
  return (
    <Card className="mb-4 p-4 sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">Used in recipes</h2>
      <p className="mt-1 text-sm text-slate-600">Their values follow this food’s. Take it out of the active ones before archiving it.</p>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="used-in-recipes">
        {used.data.map((r) => (
          <li key={r.id}>
            <Link href={`/foods/${r.id}`} className="font-semibold text-brand-800 hover:underline">
              {r.name}
            </Link>
            {r.archived && <span className="text-slate-600"> (archived)</span>}
          </li>
        ))}
      </ul>
    </Card>
  );
}
