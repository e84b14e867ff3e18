import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import List from '@mui/material/List';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDrawer } from '../../../components/code-drawer';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { type TActivationsFilter, useListActivationsQuery } from '../../../lib/http/plans-api';

type TActivationsCardProps = {
  /** Which plans sold the card lists (read again each time it opens). */
  filter: TActivationsFilter;
  title: string;
  testId: string;
  /** What an empty list says, and its data-testid. */
  empty: { text: string; testId: string };
  /** The loading placeholder's height, px. */
  skeletonHeight: number;
  /** The list's data-testid, if it has one. */
  listTestId?: string;
  /** One row; `open` shows that plan's code in the code drawer. */
  renderRow: (activation: TPlanActivation, open: (activation: TPlanActivation) => void) => ReactNode;
};

/**
 * A card of plans sold, newest first (loading, failed with a retry, empty, or the rows); a row
 * opens the code drawer with its plan's code (spec §2).
 */
export const ActivationsCard = ({
  filter,
  title,
  testId,
  empty,
  skeletonHeight,
  listTestId,
  renderRow,
}: TActivationsCardProps) => {
  const { t } = useTranslation();
  const activations = useListActivationsQuery(filter, { refetchOnMountOrArgChange: true });
  const [opened, setOpened] = useState<TPlanActivation | null>(null);

  const renderBody = () => {
    if (activations.isLoading) return <Skeleton variant="rounded" height={skeletonHeight} />;
    if (!activations.data)
      return <LoadError message={activations.error?.message} onRetry={activations.refetch} />;
    if (activations.data.length === 0)
      return (
        <Typography variant="body2" color="textSecondary" data-testid={empty.testId}>
          {empty.text}
        </Typography>
      );
    return (
      <List disablePadding data-testid={listTestId}>
        {activations.data.map((activation) => renderRow(activation, setOpened))}
      </List>
    );
  };

  return (
    <SectionCard title={title} testId={testId}>
      {renderBody()}
      <CodeDrawer
        isOpen={opened !== null}
        code={opened?.code}
        title={opened ? t('plans.codeOf', { plan: opened.planName }) : undefined}
        onClose={() => setOpened(null)}
      />
    </SectionCard>
  );
};
