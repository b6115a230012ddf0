import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { RATING_COMMENT_MAX, type RatingFormInput, type RatingFormValues, ratingForm } from '../../../../server/rating/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { HalfStarRating } from './HalfStarRating';

const isConflict = (error: unknown) => error instanceof TRPCClientError && error.data?.code === 'CONFLICT';

/**
 * A half-star rating and an optional comment; once sent (or if
 * the rated check says so) the page shows the thank-you state instead.
 */
export function WriteReviewPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const checkKey = trpc.rating.checkIsRated.queryKey({});
  const rated = useQuery({ ...trpc.rating.checkIsRated.queryOptions({}), staleTime: 0 });
  const [submitted, setSubmitted] = useState(false);

  const showSubmitted = () => {
    queryClient.setQueryData(checkKey, { rated: true });
    setSubmitted(true);
  };

  // A 409 on the rated check means "already rated", with no message.
  const alreadyRated = rated.data?.rated === true || isConflict(rated.error);
  return (
    <Page title="Write a Review" lead="Tell us how your journey with your dietitian is going." width="max-w-2xl">
      <Card className="p-5 sm:p-8">
        {rated.isPending ? (
          <Loading label="Checking whether you have already rated us" />
        ) : submitted || alreadyRated ? (
          <RatedThankYou />
        ) : (
          <ReviewForm onRated={showSubmitted} checkError={rated.error} />
        )}
      </Card>
    </Page>
  );
}

function RatedThankYou() {
  return (
    <div className="flex flex-col items-center gap-3 py-8 text-center" role="status" data-testid="rated">
      <CircleCheck className="h-16 w-16 text-green-600" aria-hidden="true" />
      <h2 className="text-2xl font-bold text-slate-900">Rated Successfully</h2>
      <p className="max-w-md text-slate-700">Thank you for your feedback. We greatly appreciate your time and input.</p>
    </div>
  );
}

function ReviewForm({ onRated, checkError }: { onRated: () => void; checkError: unknown }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const add = useMutation(trpc.rating.add.mutationOptions());
  const form = useForm<RatingFormInput, unknown, RatingFormValues>({
    resolver: zodResolver(ratingForm),
    defaultValues: { reviewStar: 0, reviewComment: '' },
  });
  const starError = form.formState.errors.reviewStar?.message;
  const comment = form.watch('reviewComment') ?? '';

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await overlay.run(add.mutateAsync(values));
      toast.success(answer.message);
      onRated();
    } catch (error) {
      toastError(error);
      if (isConflict(error)) onRated();
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      {checkError ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          We could not check whether you have rated us before. You can still send a review.
        </p>
      ) : null}
      <div className="flex flex-col gap-2">
        <span id="rating-label" className="text-sm font-medium text-slate-800">
          Your rating
        </span>
        <Controller
          control={form.control}
          name="reviewStar"
          render={({ field }) => <HalfStarRatingField value={Number(field.value) || 0} onChange={field.onChange} error={starError} />}
        />
      </div>
      <TextAreaField
        label="Comment (optional)"
        placeholder="Share your thoughts with us"
        className="h-[180px] resize-y"
        maxLength={RATING_COMMENT_MAX}
        hint={`${comment.length} / ${RATING_COMMENT_MAX} characters`}
        error={form.formState.errors.reviewComment?.message}
        {...form.register('reviewComment')}
      />
      <Button type="submit" size="lg" className="self-start">
        Submit
      </Button>
    </form>
  );
}

function HalfStarRatingField({ value, onChange, error }: { value: number; onChange: (v: number) => void; error?: string }) {
  return (
    <>
      <HalfStarRating
        name="reviewStar"
        value={value}
        onChange={onChange}
        invalid={Boolean(error)}
        labelledBy="rating-label"
        describedBy={error ? 'rating-error' : undefined}
      />
      {error && (
        <p id="rating-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </>
  );
}
