import { useQuery } from '@tanstack/react-query';
import { MessageSquareText } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'wouter';
import { useTRPC } from '../../../lib/trpc';

/** "Saved replies": a dietitian's templates, inserted into the composer to edit before sending. */
export function SavedReplyPicker({ onPick }: { onPick: (text: string) => void }) {
  const trpc = useTRPC();
  const replies = useQuery(trpc.admin.messages.savedReplies.queryOptions());
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50">
        <MessageSquareText className="h-4 w-4" aria-hidden="true" />
        Saved replies
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-[1200] max-h-80 w-72 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
        >
          {replies.data && replies.data.length > 0 ? (
            replies.data.map((r) => (
              <DropdownMenu.Item
                key={r.id}
                onSelect={() => onPick(r.body)}
                className="flex cursor-pointer flex-col rounded-lg px-3 py-2 text-sm outline-none data-[highlighted]:bg-brand-50"
              >
                <span className="font-semibold text-slate-900">{r.title}</span>
                <span className="line-clamp-2 text-slate-600">{r.body}</span>
              </DropdownMenu.Item>
            ))
          ) : (
            <p className="px-3 py-2 text-sm text-slate-600">{replies.isPending ? 'Loading…' : 'No saved replies yet.'}</p>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Item asChild>
            <Link
              href="/messages/settings"
              className="block rounded-lg px-3 py-2 text-sm font-medium text-brand-800 outline-none data-[highlighted]:bg-brand-50"
            >
              Manage saved replies
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
