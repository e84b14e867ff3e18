import CloudOffIcon from '@mui/icons-material/CloudOff';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';

type TSavedReadNoticeProps = {
  /** When what the screen shows was fetched, UTC ms. */
  savedAt: number;
  /** Tries the network again. */
  onRetry?: (() => void) | undefined;
  sx?: SxProps<Theme>;
};

/**
 * Issue 28: said above a screen that shows what was last fetched because the network does not
 * answer: "You are offline. Showing what was saved as of 29-11-2026 10:42 AM." (+05:30,
 * DD-MM-YYYY hh:mm A), with a retry. The one place a screen read offline says so.
 */
export const SavedReadNotice = ({ savedAt, onRetry, sx }: TSavedReadNoticeProps) => {
  const { t } = useTranslation();
  return (
    <Alert
      severity="warning"
      icon={<CloudOffIcon />}
      sx={sx ?? { mb: 2 }}
      data-testid="saved-read-notice"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      {t('common.offlineAsOf', { time: formatDateTime(savedAt) })}
    </Alert>
  );
};
