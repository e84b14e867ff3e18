import type { TKeyRequest, TKeyRequestStatus } from '@kisht/domain/ledger/key-requests.schema';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appTypeName } from '../../../lib/app-type-name';
import { formatDateTime, formatRupees } from '../../../lib/format';
import type { TKeyRequestBox } from '../key-requests-api';

/** Each status as a chip colour: waiting amber, approved green, rejected red, withdrawn grey. */
const STATUS_COLOR = {
  pending: 'warning',
  approved: 'success',
  rejected: 'error',
  cancelled: 'default',
} as const satisfies Record<TKeyRequestStatus, string>;

type TKeyRequestCardProps = {
  request: TKeyRequest;
  /** `sent`: the shop asked (says whom); `received`: a shop below asked (says who). */
  box: TKeyRequestBox;
  /** The buttons of a pending request (withdraw; approve and reject). */
  actions?: ReactNode;
};

/**
 * One key request: the key type and how many, its status as a coloured chip with its word, who
 * asked (received) or whom (sent), the price per key and the total in rupees (when the parent has
 * a price), the payment reference, when it was asked and decided (+05:30, DD-MM-YYYY hh:mm A) and
 * the parent's note (why it was rejected).
 */
export const KeyRequestCard = ({ request, box, actions }: TKeyRequestCardProps) => {
  const { t } = useTranslation();
  const { id, status } = request;
  const party =
    box === 'received'
      ? t('keyRequests.from', { name: request.requesterName })
      : request.parentName
        ? t('keyRequests.to', { name: request.parentName })
        : t('keyRequests.toOrganisation');
  const price =
    request.unitPricePaise === null
      ? t('keyRequests.noPrice')
      : t('keyRequests.price', {
          price: formatRupees(request.unitPricePaise),
          total: formatRupees(request.totalPaise ?? request.unitPricePaise * request.quantity),
        });
  return (
    <Card variant="outlined" data-testid={`key-request-${id}`} data-status={status}>
      <CardContent sx={{ pb: actions ? 1 : 2 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {t('keyRequests.keys', { count: request.quantity })} · {appTypeName(t, request.appType)}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid={`key-request-party-${id}`}>
              {party}
            </Typography>
          </Stack>
          <Chip
            size="small"
            color={STATUS_COLOR[status]}
            variant={status === 'pending' ? 'filled' : 'outlined'}
            label={t(`keyRequests.status.${status}`)}
            data-testid={`key-request-status-${id}`}
            sx={{ flexShrink: 0 }}
          />
        </Stack>
        <Typography variant="body2" sx={{ mt: 1 }} data-testid={`key-request-price-${id}`}>
          {price}
        </Typography>
        {request.paymentReference && (
          <Typography
            variant="body2"
            sx={{ wordBreak: 'break-all' }}
            data-testid={`key-request-reference-${id}`}
          >
            {t('keyRequests.reference', { reference: request.paymentReference })}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {t('keyRequests.askedOn', { date: formatDateTime(request.createdAt) })}
        </Typography>
        {request.decidedAt && status !== 'pending' && (
          <Typography variant="body2" color="text.secondary">
            {t(`keyRequests.decidedOn.${status}`, { date: formatDateTime(request.decidedAt) })}
          </Typography>
        )}
        {request.decisionNote && (
          <Typography
            variant="body2"
            color={status === 'rejected' ? 'error' : 'text.primary'}
            data-testid={`key-request-note-${id}`}
          >
            {t(status === 'rejected' ? 'keyRequests.reason' : 'keyRequests.note', {
              note: request.decisionNote,
            })}
          </Typography>
        )}
      </CardContent>
      {actions && (
        <CardActions
          sx={{ flexWrap: 'wrap', gap: 1, px: 2, pb: 2, '& > :not(style) ~ :not(style)': { ml: 0 } }}
        >
          {actions}
        </CardActions>
      )}
    </Card>
  );
};
