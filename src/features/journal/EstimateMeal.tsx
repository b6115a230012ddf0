import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { MEAL_KINDS, type MealEntry } from '../../../server/journal/schema';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { toastError } from '../../lib/notify';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { draftsOf, itemsInput } from './meal-items';
import { MealItemsEditor, useMealDraft, useRecentFoodsRefresh } from './MealItemsEditor';

/**
 * The dietitian's estimate of a client's meal from its photo and words: the foods it shows with
 * their quantities, which replace the foods it listed. The client's journal shows them at once.
 */
export function EstimateMeal({
  entry,
  open,
  onOpenChange,
  onSaved,
}: {
  entry: MealEntry;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const estimate = useMutation(trpc.admin.journal.estimate.mutationOptions());
  const draft = useMealDraft();
  const refreshRecent = useRecentFoodsRefresh();
  const { setItems } = draft;
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setItems(draftsOf(entry.items));
    setError(null);
  }, [open, entry.items, setItems]);

  const save = async () => {
    const items = itemsInput(draft.items, draft.foods);
    if (!items) {
      setError('Give each food a quantity such as 1½ katori, 2 roti or 150 g.');
      return;
    }
    try {
      await estimate.mutateAsync({ entryId: entry.id, items });
      toast.success(items.length ? 'Foods saved: the client sees them now' : 'Foods taken away');
      refreshRecent();
      onSaved();
      onOpenChange(false);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      wide
      title={`Foods of this ${MEAL_KINDS[entry.meal].toLowerCase()}`}
      description={entry.description || 'Add the foods you see in the photo, with their quantities.'}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={estimate.isPending}>
            Save foods
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3" data-testid="estimate-meal">
        {entry.photos[0] && (
          <img src={entry.photos[0].thumbnailUrl ?? entry.photos[0].url} alt="The meal" className="h-32 w-32 rounded-xl object-cover" />
        )}
        <MealItemsEditor draft={draft} showNumbers />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}
