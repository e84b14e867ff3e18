import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { KeyPricesForm } from '../../../components/key-prices-form';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useGetKeyPricesQuery, useSaveKeyPricesMutation } from '../admin-api';

/** The price of one key per app_type for online purchase; a type left empty cannot be bought online. */
export const KeyPricesPanel = () => {
  const { t } = useTranslation();
  const prices = useGetKeyPricesQuery();
  const [save, { isLoading }] = useSaveKeyPricesMutation();
  const onSave = async (values: TKeyPrices) => {
    const result = await save(values);
    if (result.data) enqueueSnackbar(t('admin.prices.saved'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
  };
  return (
    <Stack spacing={2}>
      {prices.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      <KeyPricesForm
        prices={prices.data}
        onSave={onSave}
        isSaving={isLoading}
        intro={t('admin.prices.intro')}
        saveLabel={t('admin.prices.save')}
        testIdPrefix="price"
      />
    </Stack>
  );
};
