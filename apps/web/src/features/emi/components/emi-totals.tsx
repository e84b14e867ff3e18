import type { TEmiDetails } from '@kisht/domain/emi/emi.schema';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';

type TTotalKey = keyof TEmiDetails['totals'];

const TOTALS: ReadonlyArray<{
  key: TTotalKey;
  labelKey: `emi.totals.${'amount' | 'paid' | 'outstanding' | 'overdue'}`;
  testId: string;
}> = [
  { key: 'amountPaise', labelKey: 'emi.totals.amount', testId: 'emi-total-amount' },
  { key: 'paidPaise', labelKey: 'emi.totals.paid', testId: 'emi-total-paid' },
  { key: 'outstandingPaise', labelKey: 'emi.totals.outstanding', testId: 'emi-total-outstanding' },
  { key: 'overduePaise', labelKey: 'emi.totals.overdue', testId: 'emi-total-overdue' },
];

/** A loan's totals in rupees: amount, paid, outstanding and overdue (overdue in red when above zero). */
export const EmiTotals = ({ totals }: { totals: TEmiDetails['totals'] }) => {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent>
        <Grid container spacing={2} component="dl" sx={{ m: 0 }}>
          {TOTALS.map(({ key, labelKey, testId }) => (
            <Grid key={key} size={6}>
              <Typography component="dt" variant="body2" color="textSecondary">
                {t(labelKey)}
              </Typography>
              <Typography
                component="dd"
                variant="h6"
                sx={{
                  m: 0,
                  fontWeight: 700,
                  color: key === 'overduePaise' && totals[key] > 0 ? 'error.main' : undefined,
                }}
                data-testid={testId}
              >
                {formatRupees(totals[key])}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
};
