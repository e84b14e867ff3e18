import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export type TDetailItem = { label: string; value: ReactNode; testId?: string };

/** Label–value pairs, one a row, label left and value right (a description list). */
export const DetailList = ({ items }: { items: TDetailItem[] }) => (
  <Stack component="dl" spacing={1.25} sx={{ m: 0 }}>
    {items.map((item) => (
      <Stack key={item.label} direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Typography component="dt" variant="body2" color="textSecondary">
          {item.label}
        </Typography>
        <Typography
          component="dd"
          variant="body2"
          sx={{ m: 0, fontWeight: 500, textAlign: 'right', overflowWrap: 'anywhere' }}
          data-testid={item.testId}
        >
          {item.value}
        </Typography>
      </Stack>
    ))}
  </Stack>
);
