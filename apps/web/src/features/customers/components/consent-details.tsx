import type { TCustomerConsent, TMyConsent } from '@kisht/domain/customers/consent.schema';
import { SIGNATURE_MIME_TYPE } from '@kisht/domain/media/media.schema';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/detail-list';
import { formatDateTime } from '../../../lib/format';
import { LANGUAGE_NATIVE_NAMES } from '../../../lib/i18n';
import { ConsentText } from './consent-form';
import { MediaThumbnail } from './media-preview';

/** Signature size on the consent, px (a signature pad's shape). */
const SIGNATURE_WIDTH = 180;
const SIGNATURE_HEIGHT = 60;

/** One line saying the consent is recorded: by whom and when (+05:30). */
export const ConsentRecordedNote = ({
  consent,
}: {
  consent: Pick<TCustomerConsent, 'recordedByName' | 'consentedAt'>;
}) => {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="consent-recorded">
      <VerifiedUserIcon color="success" fontSize="small" />
      <Typography variant="body2">
        {t('consent.recordedSummary', {
          name: consent.recordedByName,
          date: formatDateTime(consent.consentedAt),
        })}
      </Typography>
    </Stack>
  );
};

type TConsentDetailsProps = {
  consent: TCustomerConsent | TMyConsent;
  /** Shown open (the customer's own view); otherwise the text opens on demand. */
  isTextOpen?: boolean;
};

/**
 * A recorded consent to remote locking: its language, who recorded it and when, the text version,
 * the customer's signature, and the exact text they agreed to. The signature is the stored file on
 * the retailer's screens, or the data URL the customer's own view carries.
 */
export const ConsentDetails = ({ consent, isTextOpen = false }: TConsentDetailsProps) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(isTextOpen);
  const textId = useId();
  const signatureAlt = t('consent.signature');

  let signature: ReactNode = (
    <Typography variant="body2" color="textSecondary">
      {t('consent.signatureMissing')}
    </Typography>
  );
  if ('signature' in consent && consent.signature) {
    signature = (
      <MediaThumbnail
        media={{ imageName: consent.signature.imageName, mimeType: SIGNATURE_MIME_TYPE }}
        alt={signatureAlt}
        width={SIGNATURE_WIDTH}
        height={SIGNATURE_HEIGHT}
        testId="consent-signature"
      />
    );
  } else if ('signatureDataUrl' in consent && consent.signatureDataUrl) {
    signature = (
      <Box
        component="img"
        src={consent.signatureDataUrl}
        alt={signatureAlt}
        data-testid="consent-signature"
        sx={{
          width: SIGNATURE_WIDTH,
          height: SIGNATURE_HEIGHT,
          objectFit: 'contain',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: '#fff',
        }}
      />
    );
  }

  return (
    <Stack spacing={1.5} data-testid="consent-details">
      <DetailList
        items={[
          {
            label: t('consent.languageLabel'),
            value: LANGUAGE_NATIVE_NAMES[consent.language],
            testId: 'consent-language-name',
          },
          { label: t('consent.recordedBy'), value: consent.recordedByName, testId: 'consent-recorded-by' },
          {
            label: t('consent.recordedAt'),
            value: formatDateTime(consent.consentedAt),
            testId: 'consent-recorded-at',
          },
          { label: t('consent.textVersion'), value: consent.textVersion },
        ]}
      />
      <Stack spacing={0.5}>
        <Typography variant="body2" color="textSecondary">
          {t('consent.signature')}
        </Typography>
        {signature}
      </Stack>
      <Box>
        <Button
          size="small"
          onClick={() => setIsOpen((open) => !open)}
          aria-expanded={isOpen}
          aria-controls={textId}
          data-testid="consent-toggle-text"
        >
          {isOpen ? t('consent.hideText') : t('consent.showText')}
        </Button>
        <Collapse in={isOpen} id={textId}>
          <Box sx={{ pt: 1 }}>
            <ConsentText text={consent.text} language={consent.language} />
          </Box>
        </Collapse>
      </Box>
    </Stack>
  );
};
