import type { TSellPlanResponseItem } from '@kisht/domain/plans/plans.schema';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { isCustomerUser } from '../../../lib/auth-storage';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useListActivationsQuery, useListPlansQuery } from '../../../lib/http/plans-api';
import { useListProductsQuery } from '../../../lib/http/products-api';
import { CertificateButton } from '../components/certificate-button';
import { SellWarrantyForm } from '../components/sell-warranty-form';
import { WarrantyList } from '../components/warranty-list';
import { WARRANTIES, WARRANTY_PLANS } from '../warranty-api';

/** The warranty just sold: its code and the certificate to download. */
const SoldCard = ({ sale }: { sale: TSellPlanResponseItem }) => {
  const { t } = useTranslation();
  return (
    <Alert severity="success" sx={{ mb: 2 }} data-testid="warranty-sold">
      <Typography variant="body2">{t('warranty.codeLabel')}</Typography>
      <Typography
        variant="h6"
        component="p"
        sx={{ fontFamily: 'monospace', mb: 1 }}
        data-testid="warranty-code"
      >
        {sale.antihacking_code}
      </Typography>
      <CertificateButton
        activationId={sale.activation.id}
        code={sale.antihacking_code}
        variant="contained"
        testId="warranty-sold-certificate"
      />
    </Alert>
  );
};

/** The seller's part: the sale form (plans and products loaded first). */
const SellSection = ({ onSold }: { onSold: (sale: TSellPlanResponseItem) => void }) => {
  const { t } = useTranslation();
  const plans = useListPlansQuery(WARRANTY_PLANS);
  const products = useListProductsQuery();
  if (plans.isLoading || products.isLoading) return <PageSkeleton />;
  const failed = plans.error ?? products.error;
  if (failed || !plans.data || !products.data)
    return (
      <LoadError
        message={apiErrorMessage(failed, t('errors.somethingWentWrong'))}
        onRetry={() => {
          void plans.refetch();
          void products.refetch();
        }}
      />
    );
  if (plans.data.length === 0)
    return (
      <Alert severity="info" data-testid="warranty-no-plans">
        {t('warranty.noPlans')}
      </Alert>
    );
  return <SellWarrantyForm plans={plans.data} products={products.data} onSold={onSold} />;
};

/**
 * Spec §2 extended_warranty (app_type 5): a seller sells a warranty (plan, buyer, product, IMEI,
 * term) and gets its code and PDF certificate; below, the warranties they and their
 * mini-retailers sold, each with its term, status and certificate. A customer sees their own.
 */
export const ExtendedWarrantyPage = () => {
  const { t } = useTranslation();
  const isCustomer = isCustomerUser();
  const [sale, setSale] = useState<TSellPlanResponseItem | null>(null);
  const warranties = useListActivationsQuery(WARRANTIES);
  return (
    <>
      <PageHeader title={t('pages.extended_warranty')} subtitle={t('warranty.subtitle')} />
      <Stack spacing={2}>
        {isCustomer ? null : (
          <Card>
            <CardContent>
              {sale ? <SoldCard sale={sale} /> : null}
              <SellSection onSold={setSale} />
            </CardContent>
          </Card>
        )}
        <Card>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {isCustomer ? t('warranty.mine') : t('warranty.salesTitle')}
            </Typography>
            {warranties.isLoading ? (
              <PageSkeleton />
            ) : warranties.error || !warranties.data ? (
              <LoadError
                message={apiErrorMessage(warranties.error, t('errors.somethingWentWrong'))}
                onRetry={() => void warranties.refetch()}
              />
            ) : (
              <WarrantyList warranties={warranties.data} isBuyerShown={!isCustomer} />
            )}
          </CardContent>
        </Card>
      </Stack>
    </>
  );
};
