import { istDate } from '@kisht/domain/common/time';
import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { WARRANTY_REMINDER_DAYS } from '@kisht/domain/plans/warranty.schema';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMobile, formatRupees } from '../../../lib/format';
import { CertificateButton } from './certificate-button';

/** Where a warranty's term stands on a +05:30 day. */
export type TWarrantyTermStatus = 'upcoming' | 'active' | 'endingSoon' | 'expired';

const DAY_MS = 86_400_000;

/**
 * The term status of a warranty on `today` (YYYY-MM-DD, +05:30): not started, active, ending within
 * WARRANTY_REMINDER_DAYS days (when its buyer gets the reminder SMS), or over.
 */
export const warrantyTermStatus = (
  warranty: Pick<TPlanActivation, 'startsOn' | 'endsOn'>,
  today: string = istDate(),
): TWarrantyTermStatus => {
  if (warranty.startsOn && today < warranty.startsOn) return 'upcoming';
  if (!warranty.endsOn) return 'active';
  if (today > warranty.endsOn) return 'expired';
  const daysLeft = (Date.parse(warranty.endsOn) - Date.parse(today)) / DAY_MS;
  return daysLeft <= WARRANTY_REMINDER_DAYS ? 'endingSoon' : 'active';
};

const STATUS_COLOUR = {
  upcoming: 'info',
  active: 'success',
  endingSoon: 'warning',
  expired: 'default',
} as const;

type TWarrantyListProps = {
  warranties: readonly TPlanActivation[];
  /** Whether the buyer's name and mobile are shown (a seller's list; a customer sees their own). */
  isBuyerShown?: boolean;
};

/**
 * Warranties sold, newest first: buyer, plan, IMEI, code, term (DD-MM-YYYY, +05:30), price and
 * term status, each with its certificate download.
 */
export const WarrantyList = ({ warranties, isBuyerShown = true }: TWarrantyListProps) => {
  const { t } = useTranslation();
  if (warranties.length === 0)
    return (
      <Typography color="textSecondary" data-testid="warranty-list-empty">
        {t('warranty.none')}
      </Typography>
    );
  return (
    <Stack divider={<Divider flexItem />} data-testid="warranty-list">
      {warranties.map((warranty) => {
        const status = warrantyTermStatus(warranty);
        return (
          <Box key={warranty.id} sx={{ py: 1.5 }} data-testid={`warranty-row-${warranty.id}`}>
            <Stack
              direction="row"
              spacing={1}
              sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}
            >
              <Box sx={{ minWidth: 0 }}>
                {isBuyerShown ? (
                  <Typography sx={{ fontWeight: 600 }} noWrap>
                    {`${warranty.firstName} ${warranty.lastName}`.trim()} · {formatMobile(warranty.mobile)}
                  </Typography>
                ) : null}
                <Typography variant="body2">
                  {warranty.planName} · {formatRupees(warranty.pricePaise)}
                </Typography>
              </Box>
              <Chip
                size="small"
                color={STATUS_COLOUR[status]}
                label={t(`warranty.status.${status}`)}
                data-testid={`warranty-status-${warranty.id}`}
              />
            </Stack>
            <Typography variant="body2" color="textSecondary" data-testid={`warranty-term-${warranty.id}`}>
              {t('warranty.term', {
                start: warranty.startsOn ? formatDate(warranty.startsOn) : '—',
                end: warranty.endsOn ? formatDate(warranty.endsOn) : '—',
              })}
            </Typography>
            <Typography variant="body2" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
              {t('warranty.imeiValue', { imei: warranty.imei ?? '—' })} ·{' '}
              {t('warranty.codeValue', { code: warranty.code })}
            </Typography>
            <Box sx={{ mt: 1 }}>
              <CertificateButton
                activationId={warranty.id}
                code={warranty.code}
                testId={`warranty-certificate-${warranty.id}`}
              />
            </Box>
          </Box>
        );
      })}
    </Stack>
  );
};
