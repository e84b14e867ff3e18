import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { KeyPricesForm } from '../../../components/key-prices-form';
import { useGetKeyPricesQuery, useSaveKeyPricesMutation } from '../admin-api';

/** The price of one key per app_type for online purchase; a type left empty cannot be bought online. */
export const KeyPricesPanel = () => {
  const { t } = useTranslation();
  const prices = useGetKeyPricesQuery();
  const [save, { isLoading }] = useSaveKeyPricesMutation();

  return (
    <Stack spacing={2}>
      {prices.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      <KeyPricesForm
        prices={prices.data}
        onSave={save}
        isSaving={isLoading}
        savedText={t('admin.prices.saved')}
        failedText={t('admin.failed')}
        intro={t('admin.prices.intro')}
        saveLabel={t('admin.prices.save')}
        testIdPrefix="price"
      />
    </Stack>
  );
};
