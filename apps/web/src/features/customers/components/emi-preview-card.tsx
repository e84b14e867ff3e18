import type { TInstalment } from '@kisht/domain/emi/emi.rules';
import CalculateIcon from '@mui/icons-material/Calculate';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRupees } from '../../../lib/format';

type TEmiPreviewCardProps = { schedule: TInstalment[] | null };

/** Live EMI preview of the add-customer form, from the domain's schedule maths. */
export const EmiPreviewCard = ({ schedule }: TEmiPreviewCardProps) => {
  const { t } = useTranslation();
  const first = schedule?.[0];
  const totalInterest = schedule?.reduce((sum, row) => sum + row.interestPaise, 0) ?? 0;
  const totalPayable = schedule?.reduce((sum, row) => sum + row.amountPaise, 0) ?? 0;
  return (
    <Card sx={{ bgcolor: 'action.hover', borderStyle: 'dashed' }} data-testid="emi-preview">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <CalculateIcon color="primary" fontSize="small" />
          <Typography variant="subtitle2" component="h2">
            {t('addCustomer.previewTitle')}
          </Typography>
        </Stack>
        {schedule && first ? (
          <>
            <Typography variant="h5" component="p" data-testid="emi-preview-amount">
              {t('addCustomer.previewEmi', { amount: formatRupees(first.amountPaise) })}
            </Typography>
            <Typography variant="body2" color="textSecondary" sx={{ mb: 1.5 }}>
              {t('addCustomer.previewDetails', { count: schedule.length, date: formatDate(first.dueDate) })}
            </Typography>
            <Divider sx={{ mb: 1.5 }} />
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2" color="textSecondary">
                {t('addCustomer.previewInterest')}
              </Typography>
              <Typography variant="body2">{formatRupees(totalInterest)}</Typography>
            </Stack>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="body2" color="textSecondary">
                {t('addCustomer.previewTotal')}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {formatRupees(totalPayable)}
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
