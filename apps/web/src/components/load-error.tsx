import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

type TLoadErrorProps = { message?: string | undefined; onRetry?: () => void };

/** What a page shows instead of its content when its data could not be loaded. */
export const LoadError = ({ message, onRetry }: TLoadErrorProps) => {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      {message ?? t('errors.loadFailed')}
    </Alert>
  );
};
