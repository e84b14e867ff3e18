import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import List from '@mui/material/List';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDrawer } from '../../../components/code-drawer';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { useListActivationsQuery } from '../plans-api';
import { ActivationRow } from './activation-row';

/**
 * The plans sold of some app_types (`'8,12,13'` anti-hacking, `'7'` family care) under a plan
 * screen's form, newest first; tapping one opens the code drawer with its code (spec §2).
 */
export const ActivationList = ({ appTypes }: { appTypes: string }) => {
  const { t } = useTranslation();
  const activations = useListActivationsQuery({ appTypes }, { refetchOnMountOrArgChange: true });
  const [opened, setOpened] = useState<TPlanActivation | null>(null);

  const renderBody = () => {
    if (activations.isLoading) return <Skeleton variant="rounded" height={120} />;
    if (!activations.data)
      return <LoadError message={activations.error?.message} onRetry={activations.refetch} />;
    if (activations.data.length === 0)
      return (
        <Typography variant="body2" color="textSecondary" data-testid="activations-empty">
          {t('plans.soldList.empty')}
        </Typography>
      );
    return (
      <List disablePadding data-testid="activation-list">
        {activations.data.map((activation) => (
          <ActivationRow key={activation.id} activation={activation} onOpen={setOpened} />
        ))}
      </List>
    );
  };

  return (
    <SectionCard title={t('plans.soldList.title')} testId="activations-card">
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
