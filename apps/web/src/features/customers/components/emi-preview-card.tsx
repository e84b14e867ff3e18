import type { TInstalment } from '@kisht/domain/emi/emi.rules';
import CalculateIcon from '@mui/icons-material/Calculate';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRupees } from '../../../lib/format';
import { summariseSchedule } from '../add-customer-form';

type TEmiPreviewCardProps = { schedule: TInstalment[] | null };

/**
 * Live EMI preview of the add-customer form, from the domain's schedule maths: the monthly EMI,
 * how many instalments from which first due date, total interest and total payable.
 */
export const EmiPreviewCard = ({ schedule }: TEmiPreviewCardProps) => {
  const { t } = useTranslation();
  const summary = schedule ? summariseSchedule(schedule) : null;
  return (
    <Card sx={{ bgcolor: 'action.hover', borderStyle: 'dashed' }} data-testid="emi-preview">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <CalculateIcon color="primary" fontSize="small" />
          <Typography variant="subtitle2" component="h2">
            {t('addCustomer.previewTitle')}
          </Typography>
        </Stack>
        {summary ? (
          <>
            <Typography variant="h5" component="p" data-testid="emi-preview-amount">
              {t('addCustomer.previewEmi', { amount: formatRupees(summary.emiPaise) })}
            </Typography>
            <Typography
              variant="body2"
              color="textSecondary"
              sx={{ mb: 1.5 }}
              data-testid="emi-preview-details"
            >
              {t('addCustomer.previewDetails', {
                count: summary.instalmentCount,
                date: formatDate(summary.firstDueDate),
              })}
            </Typography>
            <Divider sx={{ mb: 1.5 }} />
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2" color="textSecondary">
                {t('addCustomer.previewInterest')}
              </Typography>
              <Typography variant="body2" data-testid="emi-preview-interest">
                {formatRupees(summary.totalInterestPaise)}
              </Typography>
            </Stack>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2" color="textSecondary">
                {t('addCustomer.previewTotal')}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="emi-preview-total">
                {formatRupees(summary.totalPayablePaise)}
              </Typography>
            </Stack>
          </>
        ) : (
          <Typography variant="body2" color="textSecondary">
            {t('addCustomer.previewUnavailable')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
};
