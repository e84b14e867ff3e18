import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * Spec §2 anti-hacking: the modal that shows the code a sale returned (data[0].antihacking_code)
 * with the server's message; closing it is the caller's (customer_list, replacing the entry).
 */
export const SoldCodeDialog = ({
  code,
  message,
  onClose,
}: {
  /** The code to show; null keeps the modal closed. */
  code: string | null;
  message: string;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog open={code !== null} onClose={onClose} fullWidth maxWidth="xs" data-testid="sold-code-dialog">
      <DialogTitle>{t('plans.codeDialog.title')}</DialogTitle>
      <DialogContent>
        {message ? (
          <Typography variant="body2" color="success.main" sx={{ mb: 1.5 }} data-testid="sold-code-message">
            {message}
          </Typography>
        ) : null}
        <Typography
          component="p"
          variant="h5"
          data-testid="sold-code"
          sx={{
            fontFamily: 'monospace',
            letterSpacing: '0.05em',
            textAlign: 'center',
            whiteSpace: 'nowrap',
            py: 2,
            bgcolor: 'action.hover',
            borderRadius: 2,
            userSelect: 'all',
          }}
        >
          {code || t('common.notAvailable')}
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1.5 }}>
          {t('plans.codeDialog.hint')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} data-testid="sold-code-close">
          {t('plans.codeDialog.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
