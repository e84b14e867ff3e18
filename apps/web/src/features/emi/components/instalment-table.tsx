import type { TInstalmentRow } from '@kisht/domain/emi/emi.schema';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRupees } from '../../../lib/format';
import { isPayable } from '../record-payment-form';
import type { TInstalmentRowActions } from './instalment-actions-menu';
import { InstalmentActionsMenu } from './instalment-actions-menu';
import { InstalmentStatusChip } from './instalment-status-chip';

/** Ticking instalments to pay; absent on read-only screens. */
export type TInstalmentSelection = {
  selectedIds: number[];
  onToggle: (emiId: number) => void;
  onToggleAll: (isSelected: boolean) => void;
  isDisabled?: boolean;
};

type TInstalmentTableProps<T extends TInstalmentRow> = {
  instalments: T[];
  selection?: TInstalmentSelection | undefined;
  /** Per-row actions (levy penalty, waive); absent on read-only screens and for the customer. */
  actions?: TInstalmentRowActions | undefined;
  /** More lines under a row's status (the customer's own view: days overdue, late fee, total due). */
  renderNote?: ((instalment: T) => ReactNode) | undefined;
};

type TCellsProps = { instalment: TInstalmentRow; hasActions: boolean; note?: ReactNode };

const NO_WRAP = { whiteSpace: 'nowrap' } as const;
/** Read by screen readers, not shown (the actions column's header). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A small line under a figure; shown only for a non-zero amount. */
const Caption = ({ text, testId, color }: { text: string; testId: string; color?: string }) => (
  <Typography
    variant="caption"
    component="div"
    sx={{ color: color ?? 'text.secondary' }}
    data-testid={testId}
  >
    {text}
  </Typography>
);

/** The penalty levied on the instalment, when there is one. */
const PenaltyCaption = ({ instalment }: { instalment: TInstalmentRow }) => {
  const { t } = useTranslation();
  if (instalment.penaltyPaise <= 0) return null;
  return (
    <Caption
      text={t('emi.schedule.penaltyCaption', { amount: formatRupees(instalment.penaltyPaise) })}
      testId="emi-row-penalty"
    />
  );
};

/** What was waived on the instalment, when anything was. */
const WaivedCaption = ({ instalment }: { instalment: TInstalmentRow }) => {
  const { t } = useTranslation();
  if (instalment.waivedPaise <= 0) return null;
  return (
    <Caption
      text={t('emi.schedule.waivedCaption', { amount: formatRupees(instalment.waivedPaise) })}
      testId="emi-row-waived"
    />
  );
};

/** The penalty the retailer may levy today; only where they can act on it. */
const PenaltyDueCaption = ({ instalment, hasActions }: TCellsProps) => {
  const { t } = useTranslation();
  if (!hasActions || instalment.penaltyDuePaise <= 0) return null;
  return (
    <Caption
      text={t('emi.schedule.penaltyDue', { amount: formatRupees(instalment.penaltyDuePaise) })}
      testId="emi-row-penalty-due"
      color="warning.dark"
    />
  );
};

/** Amount, paid, outstanding and status in columns of their own (tablet and wider). */
const WideCells = ({ instalment, hasActions, note }: TCellsProps) => (
  <>
    <TableCell sx={NO_WRAP}>{formatDate(instalment.dueDate)}</TableCell>
    <TableCell align="right" sx={NO_WRAP}>
      <div data-testid="emi-row-amount">{formatRupees(instalment.amountPaise)}</div>
      <PenaltyCaption instalment={instalment} />
    </TableCell>
    <TableCell align="right" sx={NO_WRAP}>
      <div data-testid="emi-row-paid">{formatRupees(instalment.paidPaise)}</div>
      <WaivedCaption instalment={instalment} />
    </TableCell>
    <TableCell align="right" sx={NO_WRAP} data-testid="emi-row-outstanding">
      {formatRupees(instalment.outstandingPaise)}
    </TableCell>
    <TableCell>
      <InstalmentStatusChip status={instalment.status} />
      <PenaltyDueCaption instalment={instalment} hasActions={hasActions} />
      {note}
    </TableCell>
  </>
);

/** Phone width: the status under the due date; amount and paid under what is outstanding. */
const CompactCells = ({ instalment, hasActions, note }: TCellsProps) => {
  const { t } = useTranslation();
  return (
    <>
      <TableCell sx={NO_WRAP}>
        {formatDate(instalment.dueDate)}
        <Box sx={{ mt: 0.5 }}>
          <InstalmentStatusChip status={instalment.status} />
        </Box>
        <PenaltyDueCaption instalment={instalment} hasActions={hasActions} />
        {note}
      </TableCell>
      <TableCell align="right" sx={NO_WRAP}>
        <Typography
          variant="body2"
          component="div"
          sx={{ fontWeight: 600 }}
          data-testid="emi-row-outstanding"
        >
          {formatRupees(instalment.outstandingPaise)}
        </Typography>
        <Typography variant="caption" color="textSecondary" component="div" data-testid="emi-row-amount">
          {t('emi.schedule.amountCaption', { amount: formatRupees(instalment.amountPaise) })}
        </Typography>
        <Typography variant="caption" color="textSecondary" component="div" data-testid="emi-row-paid">
          {t('emi.schedule.paidCaption', { amount: formatRupees(instalment.paidPaise) })}
        </Typography>
        <PenaltyCaption instalment={instalment} />
        <WaivedCaption instalment={instalment} />
      </TableCell>
    </>
  );
};

/**
 * The instalment schedule: no., due date (DD-MM-YYYY), amount, paid, outstanding (rupees) and
 * status; the penalty under the amount and what was waived under what was paid, when not zero.
 * With `selection`, each unpaid instalment has a checkbox (`emi-select-<no>`) and the header one
 * ticks them all. With `actions`, a last column holds each row's actions menu, and a row says
 * when a penalty may be levied. `renderNote` adds lines of its own under each row's status. On a
 * phone-wide screen the status sits under the due date and the amount and what was paid under what
 * is outstanding, so nothing scrolls off the side.
 */
export const InstalmentTable = <T extends TInstalmentRow>({
  instalments,
  selection,
  actions,
  renderNote,
}: TInstalmentTableProps<T>) => {
  const { t } = useTranslation();
  // The theme from the hook, not useMediaQuery's callback, so the default theme serves without a provider.
  const theme = useTheme();
  const isCompact = useMediaQuery(theme.breakpoints.down('sm'));
  if (instalments.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        {t('emi.schedule.empty')}
      </Typography>
    );
  }
  const payable = instalments.filter(isPayable);
  const selectedCount = selection
    ? payable.filter((instalment) => selection.selectedIds.includes(instalment.id)).length
    : 0;
  const canSelect = Boolean(selection) && payable.length > 0;
  return (
    <TableContainer>
      <Table
        size="small"
        data-testid="emi-schedule"
        sx={{
          '& .MuiTableCell-root': { px: 0.75 },
          '& .MuiTableCell-paddingCheckbox': { px: 0 },
          // Stacked cells (phone width) read best from the top.
          ...(isCompact ? { '& .MuiTableCell-body': { verticalAlign: 'top' } } : {}),
        }}
      >
        <TableHead>
          <TableRow>
            {canSelect && selection ? (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={selectedCount === payable.length}
                  indeterminate={selectedCount > 0 && selectedCount < payable.length}
                  disabled={selection.isDisabled}
                  onChange={(event) => selection.onToggleAll(event.target.checked)}
                  slotProps={{
                    input: {
                      'aria-label': t('emi.schedule.selectAll'),
                      'data-testid': 'emi-select-all',
                    } as object,
                  }}
                />
              </TableCell>
            ) : null}
            <TableCell>{t('emi.schedule.no')}</TableCell>
            <TableCell>{t('emi.schedule.dueDate')}</TableCell>
            {isCompact ? null : (
              <>
                <TableCell align="right">{t('emi.schedule.amount')}</TableCell>
                <TableCell align="right">{t('emi.schedule.paid')}</TableCell>
              </>
            )}
            <TableCell align="right">{t('emi.schedule.outstanding')}</TableCell>
            {isCompact ? null : <TableCell>{t('emi.schedule.status')}</TableCell>}
            {actions ? (
              <TableCell padding="checkbox">
                <Box component="span" sx={VISUALLY_HIDDEN}>
                  {t('emi.schedule.actions')}
                </Box>
              </TableCell>
            ) : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {instalments.map((instalment) => {
            const isSelected = Boolean(selection?.selectedIds.includes(instalment.id));
            return (
              <TableRow
                key={instalment.id}
                selected={isSelected}
                data-testid={`emi-row-${instalment.instalmentNo}`}
                sx={instalment.status === 'paid' ? { bgcolor: 'action.hover' } : undefined}
              >
                {canSelect && selection ? (
                  <TableCell padding="checkbox">
                    {isPayable(instalment) ? (
                      <Checkbox
                        size="small"
                        checked={isSelected}
                        disabled={selection.isDisabled}
                        onChange={() => selection.onToggle(instalment.id)}
                        slotProps={{
                          input: {
                            'aria-label': t('emi.schedule.select', { no: instalment.instalmentNo }),
                            'data-testid': `emi-select-${instalment.instalmentNo}`,
                          } as object,
                        }}
                      />
                    ) : null}
                  </TableCell>
                ) : null}
                <TableCell>{instalment.instalmentNo}</TableCell>
                {isCompact ? (
                  <CompactCells
                    instalment={instalment}
                    hasActions={Boolean(actions)}
                    note={renderNote?.(instalment)}
                  />
                ) : (
                  <WideCells
                    instalment={instalment}
                    hasActions={Boolean(actions)}
                    note={renderNote?.(instalment)}
                  />
                )}
                {actions ? (
                  <TableCell padding="checkbox">
                    <InstalmentActionsMenu instalment={instalment} actions={actions} />
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
