import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { lazy, Suspense } from 'react';

// Its own chunk (design §8): the markdown parser weighs nothing on login or the other screens.
const MarkdownBody = lazy(() => import('./markdown-body'));

/** An organisation page's markdown, rendered safely (markdown-body.tsx) once its chunk has loaded. */
export const LazyMarkdown = ({ markdown }: { markdown: string }) => (
  <Suspense
    fallback={
      <Stack spacing={1} data-testid="markdown-loading">
        <Skeleton variant="text" width="40%" height={32} />
        <Skeleton variant="text" />
        <Skeleton variant="text" />
        <Skeleton variant="text" width="70%" />
      </Stack>
    }
  >
    <MarkdownBody markdown={markdown} />
  </Suspense>
);
