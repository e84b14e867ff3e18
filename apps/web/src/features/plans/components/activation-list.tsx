import { useTranslation } from 'react-i18next';
import { ActivationRow } from './activation-row';
import { ActivationsCard } from './activations-card';

/**
 * The plans sold of some app_types (`'8,12,13'` anti-hacking, `'7'` family care) under a plan
 * screen's form, newest first; tapping one opens the code drawer with its code (spec §2).
 */
export const ActivationList = ({ appTypes }: { appTypes: string }) => {
  const { t } = useTranslation();
  return (
    <ActivationsCard
      filter={{ appTypes }}
      title={t('plans.soldList.title')}
      testId="activations-card"
      empty={{ text: t('plans.soldList.empty'), testId: 'activations-empty' }}
      skeletonHeight={120}
      listTestId="activation-list"
      renderRow={(activation, open) => (
        <ActivationRow key={activation.id} activation={activation} onOpen={open} />
      )}
    />
  );
};
