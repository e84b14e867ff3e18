import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

const SHORT_BARS = [0, 1, 2, 3];

/** Spec §2 loading skeleton: one tall bar (180 px) and four shorter bars (80 px). */
export const PageSkeleton = () => (
  <Stack spacing={2} data-testid="page-skeleton">
    <Skeleton variant="rounded" height={180} />
    {SHORT_BARS.map((bar) => (
      <Skeleton key={bar} variant="rounded" height={80} />
    ))}
  </Stack>
);
