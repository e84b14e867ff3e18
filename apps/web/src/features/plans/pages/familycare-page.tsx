import { AppType } from '@kisht/domain/common/enums';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CodeDrawer } from '../../../components/code-drawer';
import { PageHeader } from '../../../components/page-header';
import type { TPlanSale } from '../../../lib/http/plans-api';
import { ActivationList } from '../components/activation-list';
import { PlanSaleForm } from '../components/plan-sale-form';
import { readPlanPreselection } from '../plan-form';

/**
 * Spec §2 /familycare: the family-care sale form (plans of app_type 7 load on open; the query's
 * app_type, plan_id and product_id pre-select), then the code drawer with the new code. Below the
 * form, the family-care plans sold; tapping one opens its code.
 */
export const FamilycarePage = () => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const preselection = useMemo(() => readPlanPreselection(searchParams), [searchParams]);
  const [sale, setSale] = useState<TPlanSale | null>(null);

  return (
    <>
      <PageHeader title={t('pages.familycare')} />
      <Stack spacing={2}>
        <Typography variant="body2" color="textSecondary">
          {t('plans.intro.familycare')}
        </Typography>
        <PlanSaleForm kind="familycare" preselection={preselection} onSold={setSale} />
        <ActivationList appTypes={String(AppType.FAMILY_CARE)} />
      </Stack>
      <CodeDrawer
        isOpen={sale !== null}
        code={sale?.antihacking_code}
        title={sale ? t('plans.codeOf', { plan: sale.activation.planName }) : undefined}
        onClose={() => setSale(null)}
      />
    </>
  );
};
