import type { TEmiRow } from '@kisht/domain/customers/customers.schema';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRupees } from '../../../lib/format';

/** Fully paid: a 'Paid' chip; part paid: the amount paid so far; unpaid: 'Due'. Compact for phones. */
const PaidCell = ({ emi }: { emi: TEmiRow }) => {
  const { t } = useTranslation();
  if (emi.paidPaise >= emi.amountPaise) {
    return (
      <Chip
        size="small"
        color="success"
        variant="outlined"
        icon={<CheckCircleIcon />}
        label={t('customerDetails.paidInFull')}
      />
    );
  }
  if (emi.paidPaise > 0) return <>{formatRupees(emi.paidPaise)}</>;
  return (
    <Typography component="span" variant="body2" color="textSecondary">
      {t('customerDetails.unpaid')}
    </Typography>
  );
};

/** The instalment schedule: number, due date (DD-MM-YYYY), amount and paid, in rupees. */
export const EmiScheduleTable = ({ emis }: { emis: TEmiRow[] }) => {
  const { t } = useTranslation();
  if (emis.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        {t('customerDetails.scheduleEmpty')}
      </Typography>
    );
  }
  return (
    <TableContainer>
      <Table size="small" data-testid="emi-schedule" sx={{ '& .MuiTableCell-root': { px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('customerDetails.scheduleNo')}</TableCell>
            <TableCell>{t('customerDetails.scheduleDueDate')}</TableCell>
            <TableCell align="right">{t('customerDetails.scheduleAmount')}</TableCell>
            <TableCell align="right">{t('customerDetails.schedulePaid')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {emis.map((emi) => {
            const isPaid = emi.paidPaise >= emi.amountPaise;
            return (
              <TableRow key={emi.id} sx={isPaid ? { bgcolor: 'action.hover' } : undefined}>
                <TableCell>{emi.instalmentNo}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(emi.dueDate)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatRupees(emi.amountPaise)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <PaidCell emi={emi} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
