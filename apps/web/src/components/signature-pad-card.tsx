import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSignaturePad } from './use-signature-pad';

/** Height of the drawing area, px (its width is the card's). */
const PAD_HEIGHT = 220;

type TSignaturePadCardProps = {
  /** Who signs and how ("Ask the customer to sign…"). */
  instructions: string;
  isSaving: boolean;
  /** Called with the drawing as a PNG file, or null when the canvas could not export it. */
  onSave: (file: File | null) => void;
  fileName: string;
  /** The save button's label; "Save" by default. */
  saveLabel?: string;
  /** Keeps Save off even after a stroke (something else must be done first). */
  isSaveDisabled?: boolean;
};

/** A signature pad (signature_pad on a canvas) with Clear and Save; Save waits for a stroke. */
export const SignaturePadCard = ({
  instructions,
  isSaving,
  onSave,
  fileName,
  saveLabel,
  isSaveDisabled = false,
}: TSignaturePadCardProps) => {
  const { t } = useTranslation();
  const { canvasRef, isEmpty, isSupported, clear, toPngFile } = useSignaturePad();
  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="body2">{instructions}</Typography>
          <Box
            sx={{
              border: 2,
              borderStyle: 'dashed',
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: '#fff',
              height: PAD_HEIGHT,
            }}
          >
            <Box
              component="canvas"
              ref={canvasRef}
              role="img"
              aria-label={t('signaturePad.canvasLabel')}
              sx={{ display: 'block', width: '100%', height: '100%', touchAction: 'none' }}
              data-testid="signature-canvas"
            />
          </Box>
          {isSupported ? null : (
            <Alert severity="error" data-testid="signature-unsupported">
              {t('signaturePad.unsupported')}
            </Alert>
          )}
          {isEmpty && isSupported ? (
            <Typography variant="caption" color="textSecondary" data-testid="signature-empty">
              {t('signaturePad.empty')}
            </Typography>
          ) : null}
          <Stack direction="row" spacing={1.5}>
            <Button
              variant="outlined"
              size="large"
              onClick={clear}
              disabled={isSaving || !isSupported}
              sx={{ flex: 1 }}
              data-testid="signature-clear"
            >
              {t('signaturePad.clear')}
            </Button>
            <Button
              variant="contained"
              size="large"
              onClick={() => void toPngFile(fileName).then(onSave)}
              disabled={isEmpty || isSaveDisabled}
              loading={isSaving}
              sx={{ flex: 2 }}
              data-testid="signature-save"
            >
              {saveLabel ?? t('signaturePad.save')}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};
