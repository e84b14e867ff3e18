import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type TSectionCardProps = { title: string; children: ReactNode; action?: ReactNode; testId?: string };

/** A titled card of a customer screen, with an optional action at the right of its title. */
export const SectionCard = ({ title, children, action, testId }: TSectionCardProps) => (
  <Card data-testid={testId}>
    <CardContent>
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </CardContent>
  </Card>
);
