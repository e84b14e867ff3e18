import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { KeyPricesForm } from '../../../components/key-prices-form';
import { LoadError } from '../../../components/load-error';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useGetShopKeyPricesQuery, useSaveShopKeyPricesMutation } from '../key-requests-api';

/**
 * "Prices for my shops" (issue 30): a distributor's or retailer's price of one key per app_type to
 * the nodes below it (GET/PUT paths.keyRequests.prices), in rupees, edited as the organisation
 * admin's key prices are. A type left empty costs the organisation's key price
 * (docs/key-requests.md); a request carries the price that applied when it arrived.
 */
export const ShopKeyPricesPanel = () => {
  const { t } = useTranslation();
  const prices = useGetShopKeyPricesQuery();
  const [save, { isLoading }] = useSaveShopKeyPricesMutation();

  if (prices.isLoading) return <Skeleton variant="rounded" height={240} />;
  if (prices.isError)
    return (
      <LoadError
        message={apiErrorMessage(prices.error, t('keyRequests.loadFailed'))}
        onRetry={() => void prices.refetch()}
      />
    );
  return (
    <KeyPricesForm
      prices={prices.data}
      onSave={save}
      isSaving={isLoading}
      savedText={t('keyRequests.prices.saved')}
      failedText={t('keyRequests.failed')}
      intro={t('keyRequests.prices.intro')}
      saveLabel={t('keyRequests.prices.save')}
      testIdPrefix="shop-price"
      testId="shop-key-prices"
    />
  );
};
