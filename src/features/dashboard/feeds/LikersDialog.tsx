import { useInfiniteQuery } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { Modal, ModalClose } from '../../../components/ui/Modal';
import { Loading } from '../../../components/ui/States';
import { errorMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';

const LIKERS_PAGE = 50;

/** Who liked a post, by first and last name with a user icon, and a Close button. */
export function LikersDialog({ postId, onClose }: { postId: number | null; onClose: () => void }) {
  const trpc = useTRPC();
  const likers = useInfiniteQuery({
    ...trpc.feed.likers.infiniteQueryOptions(
      { postId: postId ?? 0, limit: LIKERS_PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    enabled: postId !== null,
  });
  const people = likers.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Modal
      open={postId !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Liked by"
      footer={
        <ModalClose asChild>
          <Button variant="secondary">Close</Button>
        </ModalClose>
      }
    >
      {likers.isPending ? (
        <Loading label="Loading the people who liked this" />
      ) : likers.isError ? (
        <p role="alert" className="text-red-700">
          {errorMessage(likers.error)}
        </p>
      ) : people.length === 0 ? (
        <p className="py-4 text-center text-slate-600">No likes yet.</p>
      ) : (
        <>
          <ul className="max-h-[50vh] divide-y divide-slate-100 overflow-y-auto" data-testid="likers-list">
            {people.map((person) => (
              <li key={person.id} className="flex items-center gap-3 py-2.5">
                <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                  <UserRound className="h-5 w-5" aria-hidden="true" />
                </span>
                <span className="font-medium text-slate-800">
                  {person.profile.fName} {person.profile.lName}
                </span>
              </li>
            ))}
          </ul>
          {likers.hasNextPage && (
            <Button
              variant="ghost"
              size="sm"
              className="mt-2 w-full"
              disabled={likers.isFetchingNextPage}
              onClick={() => void likers.fetchNextPage()}
            >
              {likers.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </Button>
          )}
        </>
      )}
    </Modal>
  );
}
