import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { skipToken } from '@reduxjs/toolkit/query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { formatRupees } from '../../../lib/format';
import { useListPlansQuery, useSellPlanMutation } from '../../../lib/http/plans-api';
import { useGetCustomerDetailsQuery } from '../customers-api';

/**
 * The sale's request for a new customer: the customer's names, mobile and email (spec §3 form
 * fields) and the plan chosen.
 */
export const planSaleRequest = (customer: TCustomerDetails, planId: number) => ({
  customer_id: customer.id,
  plan_id: planId,
  firstName: customer.firstName,
  lastName: customer.lastName,
  mobile: customer.mobile,
  email: customer.email ?? '',
});

/**
 * "Add a protection plan" (issue 14) for a saved customer: the active plans for the customer's
 * product; choosing one and Sell issues its activation code (one key of the plan's type), shown
 * here. In add_customer it is an optional step (`canSkip`: leaving it is skipping it); on
 * customer_details it sells a plan to an existing customer. A failure is the server's toast.
 */
export const AddCustomerPlanStep = ({
  customerId,
  canSkip = true,
}: {
  customerId: number;
  canSkip?: boolean;
}) => {
  const { t } = useTranslation();
  const customer = useGetCustomerDetailsQuery(customerId);
  const productId = customer.data?.productId;
  const plans = useListPlansQuery(productId === undefined ? skipToken : { productId });
  const [sellPlan, { isLoading }] = useSellPlanMutation();
  const [planId, setPlanId] = useState<number | null>(null);
  const [sold, setSold] = useState<{ code: string; planName: string } | null>(null);

  const sell = async () => {
    if (!customer.data || planId === null) return;
    const result = await sellPlan(planSaleRequest(customer.data, planId));
    // A failure: the store has already shown the server's message in a toast.
    if (!result.data) return;
    setSold({ code: result.data.antihacking_code, planName: result.data.activation.planName });
    enqueueSnackbar(t('addCustomerPlan.sold'), { variant: 'success' });
  };

  if (plans.data?.length === 0 || customer.isError || plans.isError) return null;
  return (
    <SectionCard title={t('addCustomerPlan.title')} testId="add-customer-plan">
      {sold ? (
        <Alert severity="success" data-testid="add-customer-plan-sold">
          <Typography variant="body2">{t('addCustomerPlan.codeFor', { plan: sold.planName })}</Typography>
          <Typography
            variant="h6"
            component="p"
            sx={{ fontFamily: 'monospace', letterSpacing: 1 }}
            data-testid="add-customer-plan-code"
          >
            {sold.code}
          </Typography>
          <Typography variant="body2">{t('addCustomerPlan.share')}</Typography>
        </Alert>
      ) : !plans.data ? (
        <Skeleton variant="rounded" height={80} />
      ) : (
        <Stack spacing={1.5}>
          <Typography variant="body2" color="text.secondary">
            {t('addCustomerPlan.intro')}
          </Typography>
          <RadioGroup
            value={planId === null ? '' : String(planId)}
            onChange={(event) => setPlanId(Number(event.target.value))}
            aria-label={t('addCustomerPlan.title')}
          >
            {plans.data.map((plan) => (
              <FormControlLabel
                key={plan.id}
                value={String(plan.id)}
                control={<Radio size="small" />}
                data-testid={`add-customer-plan-${plan.id}`}
                label={t('addCustomerPlan.option', {
                  name: plan.name,
                  price: formatRupees(plan.pricePaise),
                  count: plan.durationMonths,
                })}
              />
            ))}
          </RadioGroup>
          <Button
            variant="outlined"
            disabled={planId === null}
            loading={isLoading}
            onClick={() => void sell()}
            data-testid="add-customer-plan-sell"
          >
            {t('addCustomerPlan.sell')}
          </Button>
          {canSkip ? (
            <Typography variant="caption" color="text.secondary">
              {t('addCustomerPlan.skipHint')}
            </Typography>
          ) : null}
        </Stack>
      )}
    </SectionCard>
  );
};
