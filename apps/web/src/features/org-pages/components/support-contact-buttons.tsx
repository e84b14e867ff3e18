import { formatIndianMobile } from '@kisht/domain/common/format';
import { type TSupportContact, whatsappLink } from '@kisht/domain/org-pages/org-pages.schema';
import EmailIcon from '@mui/icons-material/Email';
import PhoneIcon from '@mui/icons-material/Phone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * The support page's ways to reach the organisation: tap to call (`tel:`), WhatsApp (`wa.me`, in a
 * new tab or the WhatsApp app) and e-mail (`mailto:`), each only when the admin has set it.
 */
export const SupportContactButtons = ({ contact }: { contact: TSupportContact | null }) => {
  const { t } = useTranslation();
  if (!contact || (!contact.phone && !contact.whatsapp && !contact.email))
    return (
      <Typography color="textSecondary" data-testid="support-no-contact">
        {t('orgPages.noContact')}
      </Typography>
    );
  return (
    <Stack spacing={1.5} data-testid="support-contact">
      {contact.phone && (
        <Button
          variant="contained"
          size="large"
          startIcon={<PhoneIcon />}
          href={`tel:${contact.phone}`}
          data-testid="support-call"
          sx={{ justifyContent: 'flex-start' }}
        >
          {t('orgPages.call', { phone: formatIndianMobile(contact.phone) })}
        </Button>
      )}
      {contact.whatsapp && (
        <Button
          variant="contained"
          color="success"
          size="large"
          startIcon={<WhatsAppIcon />}
          href={whatsappLink(contact.whatsapp)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="support-whatsapp"
          sx={{ justifyContent: 'flex-start' }}
        >
          {t('orgPages.whatsapp', { phone: formatIndianMobile(contact.whatsapp) })}
        </Button>
      )}
      {contact.email && (
        <Button
          variant="outlined"
          size="large"
          startIcon={<EmailIcon />}
          href={`mailto:${contact.email}`}
          data-testid="support-email"
          sx={{ justifyContent: 'flex-start', textTransform: 'none', overflowWrap: 'anywhere' }}
        >
          {contact.email}
        </Button>
      )}
    </Stack>
  );
};
