import { ANTIHACKING_APP_TYPES } from '@kisht/domain/plans/plans.schema';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import type { TPlanSale } from '../../../lib/http/plans-api';
import { appPaths } from '../../../lib/paths';
import { ActivationList } from '../components/activation-list';
import { PlanSaleForm } from '../components/plan-sale-form';
import { SoldCodeDialog } from '../components/sold-code-dialog';
import { readPlanPreselection } from '../plan-form';

/** The app_types of the anti-hacking list (spec §1: 8, 12 and 13). */
export const ANTIHACKING_LIST_APP_TYPES = ANTIHACKING_APP_TYPES.join(',');

/**
 * Spec §2 /antihacking: the sale form (plans load on open; the query's app_type, plan_id and
 * product_id pre-select), then a modal with the code the server returned; closing it goes to
 * customer_list, replacing this entry. Below the form, the anti-hacking plans sold.
 */
export const AntihackingPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const preselection = useMemo(() => readPlanPreselection(searchParams), [searchParams]);
  const [sale, setSale] = useState<TPlanSale | null>(null);

  return (
    <>
      <PageHeader title={t('pages.antihacking')} />
      <Stack spacing={2}>
        <Typography variant="body2" color="textSecondary">
          {t('plans.intro.antihacking')}
        </Typography>
        <PlanSaleForm kind="antihacking" preselection={preselection} onSold={setSale} />
        <ActivationList appTypes={ANTIHACKING_LIST_APP_TYPES} />
      </Stack>
      <SoldCodeDialog
        code={sale ? sale.antihacking_code : null}
        message={sale?.message ?? ''}
        onClose={() => navigate(appPaths.customerList.href(), { replace: true })}
      />
    </>
  );
};
