import type { TCustomerConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_LANGUAGES, type TConsentLanguage } from '@kisht/domain/customers/consent-texts';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { LANGUAGE_BCP47, LANGUAGE_NATIVE_NAMES } from '../../../lib/i18n';
import {
  useGetConsentTextQuery,
  useRecordConsentMutation,
  useUploadSignatureMutation,
} from '../customers-api';
import { SignaturePadCard } from './signature-pad-card';

const isConsentLanguage = (value: unknown): value is TConsentLanguage =>
  CONSENT_LANGUAGES.some((language) => language === value);

/** How tall the text box grows before it scrolls, px (the whole text fits on a tablet). */
const TEXT_MAX_HEIGHT = 360;

/**
 * The consent text as the customer reads it: its title and lines kept, in their script (`lang`
 * for screen readers and fonts), scrolling within a bordered box.
 */
export const ConsentText = ({ text, language }: { text: string; language: TConsentLanguage }) => (
  <Box
    lang={LANGUAGE_BCP47[language]}
    data-testid="consent-text"
    sx={{
      whiteSpace: 'pre-line',
      border: 1,
      borderColor: 'divider',
      borderRadius: 1,
      p: 1.5,
      maxHeight: TEXT_MAX_HEIGHT,
      overflowY: 'auto',
      typography: 'body2',
      bgcolor: 'background.default',
    }}
  >
    {text}
  </Box>
);

type TConsentFormProps = {
  customerId: number;
  /** Called once the consent is recorded (or was already, as the server answers a repeat). */
  onRecorded?: (consent: TCustomerConsent) => void;
};

/**
 * Records the customer's consent to remote locking (issue 12), which the enrolment QR needs: the
 * retailer picks the customer's language (the app's own to start with), the customer reads the
 * text (or hears it), the retailer confirms that, and the customer signs. The signature is
 * uploaded as the customer's signature, then the consent is recorded against the version of the
 * text shown; the server stores the text itself.
 */
export const ConsentForm = ({ customerId, onRecorded }: TConsentFormProps) => {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<TConsentLanguage>(() =>
    isConsentLanguage(i18n.language) ? i18n.language : 'en',
  );
  const [hasAgreed, setHasAgreed] = useState(false);
  const text = useGetConsentTextQuery({ customerId, language });
  const [uploadSignature, upload] = useUploadSignatureMutation();
  const [recordConsent, recording] = useRecordConsentMutation();
  // The text on screen must be the one of the chosen language before anyone signs it.
  const shownText = text.data?.language === language ? text.data : undefined;

  const handleSign = async (file: File | null) => {
    if (!shownText) return;
    if (!file) {
      enqueueSnackbar(t('signaturePad.exportFailed'), { variant: 'error' });
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      enqueueSnackbar(t('upload.errors.tooLarge'), { variant: 'error' });
      return;
    }
    // A failure of either call is shown by the store's error toast.
    const signature = await uploadSignature({ customerId, kind: 'customer_signature', file });
    if (signature.error || !signature.data) return;
    const result = await recordConsent({
      customer_id: customerId,
      language,
      textVersion: shownText.textVersion,
      signature_media_id: signature.data.id,
    });
    if (result.error || !result.data) return;
    enqueueSnackbar(t('consent.recorded'), { variant: 'success' });
    onRecorded?.(result.data);
  };

  const renderText = () => {
    if (shownText) return <ConsentText text={shownText.text} language={language} />;
    if (text.isError) return <LoadError message={text.error?.message} onRetry={text.refetch} />;
    return <Skeleton variant="rounded" height={200} aria-label={t('consent.textLoading')} />;
  };

  return (
    <Stack spacing={2} data-testid="consent-form">
      <SectionCard title={t('consent.title')}>
        <Stack spacing={2}>
          <Typography variant="body2" color="textSecondary">
            {t('consent.intro')}
          </Typography>
          <TextField
            select
            label={t('consent.language')}
            value={language}
            onChange={(event) => {
              if (isConsentLanguage(event.target.value)) setLanguage(event.target.value);
            }}
            size="small"
            slotProps={{ htmlInput: { 'data-testid': 'consent-language' } }}
          >
            {CONSENT_LANGUAGES.map((code) => (
              <MenuItem key={code} value={code} lang={LANGUAGE_BCP47[code]}>
                {LANGUAGE_NATIVE_NAMES[code]}
              </MenuItem>
            ))}
          </TextField>
          {renderText()}
          <FormControlLabel
            control={
              <Checkbox
                checked={hasAgreed}
                onChange={(event) => setHasAgreed(event.target.checked)}
                disabled={!shownText}
                data-testid="consent-agree"
              />
            }
            label={t('consent.agree')}
          />
        </Stack>
      </SectionCard>
      <SignaturePadCard
        instructions={t('consent.signInstructions')}
        fileName="consent-signature.png"
        saveLabel={t('consent.sign')}
        isSaveDisabled={!shownText || !hasAgreed}
        isSaving={upload.isLoading || recording.isLoading}
        onSave={(file) => void handleSign(file)}
      />
    </Stack>
  );
};
