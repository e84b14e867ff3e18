import { CERTIFICATE_LANGUAGES, type TCertificateLanguage } from '@kisht/domain/plans/warranty.schema';
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { saveBlob } from '../../../lib/save-file';
import { fetchWarrantyCertificate } from '../warranty-api';

/** The certificate language for a UI language: the same one when the server prints it, else en. */
export const certificateLanguageOf = (uiLanguage: string | undefined): TCertificateLanguage =>
  CERTIFICATE_LANGUAGES.find((code) => code === uiLanguage) ?? 'en';

type TCertificateButtonProps = {
  activationId: number;
  /** The activation code: the certificate's number and its file name. */
  code: string;
  variant?: 'contained' | 'outlined' | 'text';
  testId: string;
};

/**
 * "Download certificate": fetches the warranty's PDF certificate in the UI's current language
 * (with the session's headers) and saves it as `warranty-<code>.pdf`; a failure toasts the
 * server's message (spec §8).
 */
export const CertificateButton = ({
  activationId,
  code,
  variant = 'outlined',
  testId,
}: TCertificateButtonProps) => {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const [isBusy, setIsBusy] = useState(false);

  const download = async () => {
    setIsBusy(true);
    const result = await fetchWarrantyCertificate(
      { activationId, language: certificateLanguageOf(i18n.resolvedLanguage ?? i18n.language) },
      store,
    );
    setIsBusy(false);
    if ('error' in result) {
      enqueueSnackbar(result.error.message, { variant: 'error' });
      return;
    }
    const { blob } = result;
    saveBlob(blob.type ? blob : new Blob([blob], { type: 'application/pdf' }), `warranty-${code}.pdf`);
  };

  return (
    <Button
      size="small"
      variant={variant}
      startIcon={<DownloadIcon />}
      loading={isBusy}
      onClick={() => void download()}
      data-testid={testId}
      sx={{ flexShrink: 0 }}
    >
      {t('warranty.downloadCertificate')}
    </Button>
  );
};
