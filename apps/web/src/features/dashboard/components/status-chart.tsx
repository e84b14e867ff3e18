import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_WORDS } from '@kisht/domain/common/enums';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '../../../components/customer-status-chip';

type TStatusChartProps = {
  countsByStatus: TDashboard['countsByStatus'];
  total: number;
  onOpen: (word: TCustomerStatusWord) => void;
};

/** The bar colour of a status: its chip colour, grey for the neutral one. */
const barColor = (code: number): string => {
  const color = STATUS_COLORS[code as keyof typeof STATUS_COLORS];
  return color === 'default' ? 'grey.500' : `${color}.main`;
};

/** Whole per cent of `part` in `whole`; 0 when there is nothing. */
export const percentOf = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 100) : 0;

/**
 * Customers by status as a horizontal bar chart (MUI boxes, no chart library): a bar per status,
 * as long as its count relative to the largest, with the count and its share of all customers.
 * A bar opens the list filtered to its status.
 */
export const StatusChart = ({ countsByStatus, total, onOpen }: TStatusChartProps) => {
  const { t } = useTranslation();
  const max = Math.max(0, ...CUSTOMER_STATUS_WORDS.map((word) => countsByStatus[word] ?? 0));
  return (
    <Card data-testid="dashboard-status-chart">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t('dashboard.chartTitle')}
        </Typography>
        <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {CUSTOMER_STATUS_WORDS.map((word, code) => {
            const count = countsByStatus[word] ?? 0;
            const width = max > 0 ? (count / max) * 100 : 0;
            return (
              <li key={word}>
                <ButtonBase
                  onClick={() => onOpen(word)}
                  data-testid={`dashboard-chart-${word}`}
                  sx={{
                    display: 'block',
                    width: '100%',
                    textAlign: 'left',
                    borderRadius: 1,
                    px: 0.5,
                    py: 0.5,
                  }}
                >
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', mb: 0.5 }}>
                    <Typography variant="body2">{t(`customerStatus.${word}`)}</Typography>
                    <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                      {t('dashboard.chartValue', { count, percent: percentOf(count, total) })}
                    </Typography>
                  </Stack>
                  <Box
                    aria-hidden="true"
                    sx={{ height: 8, borderRadius: 4, bgcolor: 'action.hover', overflow: 'hidden' }}
                  >
                    <Box
                      sx={{
                        width: `${width}%`,
                        minWidth: count > 0 ? 4 : 0,
                        height: '100%',
                        borderRadius: 4,
                        bgcolor: barColor(code),
                      }}
                    />
                  </Box>
                </ButtonBase>
              </li>
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
};
