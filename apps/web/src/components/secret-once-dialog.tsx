import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useId } from 'react';

/** The words of a SecretOnceDialog, already translated. */
export type TSecretOnceTexts = {
  title: string;
  text: string;
  /** That it is shown only this once. */
  warning: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
};

/**
 * A secret shown this once (a webhook signing secret, a partner API key): Kisht keeps only what
 * it needs to check it, so it is never answered again. A click outside does not close the dialog;
 * only "Done" does, after the admin has had the chance to copy it. `testId` names the dialog and,
 * suffixed, its value (`-value`), copy (`-copy`) and done (`-done`) buttons.
 */
export const SecretOnceDialog = ({
  secret,
  texts,
  testId,
  onClose,
}: {
  secret: string;
  texts: TSecretOnceTexts;
  testId: string;
  onClose: () => void;
}) => {
  const titleId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      enqueueSnackbar(texts.copied, { variant: 'success' });
    } catch {
      enqueueSnackbar(texts.copyFailed, { variant: 'error' });
    }
  };
  return (
    <Dialog
      open
      onClose={(_event, reason) => reason !== 'backdropClick' && onClose()}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      slotProps={{ paper: { 'data-testid': testId } as object }}
    >
      <DialogTitle id={titleId}>{texts.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>{texts.text}</DialogContentText>
          <Box
            component="code"
            sx={{
              display: 'block',
              p: 1.5,
              borderRadius: 1,
              bgcolor: 'action.hover',
              fontFamily: 'monospace',
              wordBreak: 'break-all',
            }}
            data-testid={`${testId}-value`}
          >
            {secret}
          </Box>
          <Alert severity="warning">{texts.warning}</Alert>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {texts.copy}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid={`${testId}-done`}>
          {texts.done}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
