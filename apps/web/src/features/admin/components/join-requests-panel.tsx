import { formatIstDateTime } from '@kisht/domain/common/time';
import type { TSignupRequestItem, TSignupStatus } from '@kisht/domain/joining/joining.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMobile } from '../../../lib/format';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useDecideSignupRequestMutation, useListSignupRequestsQuery } from '../admin-api';

type TDecision = { request: TSignupRequestItem; decision: 'approve' | 'decline' };
const FILTERS = ['pending', 'all'] as const;
const STATUS_COLOR = { pending: 'warning', approved: 'success', declined: 'default' } as const;

/**
 * Join requests made to the signed-in parent (the organisation admin's, or a distributor's; issue
 * 30), pending first, each saying whether it joins as a retailer or a distributor; approve (creates
 * it, SMS) or decline, each after a confirm.
 */
export const JoinRequestsPanel = () => {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('pending');
  const requests = useListSignupRequestsQuery(filter as TSignupStatus | 'all');
  const [decide, { isLoading: isDeciding }] = useDecideSignupRequestMutation();
  const [asked, setAsked] = useState<TDecision | null>(null);

  const confirm = async () => {
    if (!asked) return;
    const result = await decide({ id: asked.request.id, decision: asked.decision });
    setAsked(null);
    if (result.data) {
      enqueueSnackbar(
        t(result.data.status === 'approved' ? 'admin.requests.approved' : 'admin.requests.declined'),
        {
          variant: 'success',
        },
      );
    } else {
      enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), {
        variant: 'error',
      });
    }
  };

  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        onChange={(_event, value: (typeof FILTERS)[number] | null) => value && setFilter(value)}
      >
        {FILTERS.map((value) => (
          <ToggleButton key={value} value={value} data-testid={`requests-filter-${value}`}>
            {t(`admin.requests.filter.${value}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {requests.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      {requests.data?.length === 0 && (
        <Typography color="text.secondary" data-testid="requests-empty">
          {t('admin.requests.empty')}
        </Typography>
      )}
      {requests.data?.map((request) => (
        <Card key={request.id} variant="outlined" data-testid={`request-${request.id}`}>
          <CardContent>
            <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {request.shopName}
              </Typography>
              <Chip
                size="small"
                color={STATUS_COLOR[request.status]}
                label={t(`admin.requests.status.${request.status}`)}
              />
            </Stack>
            <Typography variant="body2">
              {request.name} · {t(`admin.requests.role.${request.role}`)}
            </Typography>
            <Typography variant="body2">
              {formatMobile(request.mobile)} · {request.city}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatIstDateTime(request.createdAt)}
            </Typography>
          </CardContent>
          {request.status === 'pending' && (
            <CardActions>
              <Button
                variant="contained"
                onClick={() => setAsked({ request, decision: 'approve' })}
                data-testid={`approve-${request.id}`}
              >
                {t('admin.requests.approve')}
              </Button>
              <Button
                color="error"
                onClick={() => setAsked({ request, decision: 'decline' })}
                data-testid={`decline-${request.id}`}
              >
                {t('admin.requests.decline')}
              </Button>
            </CardActions>
          )}
        </Card>
      ))}
      <Dialog open={asked !== null} onClose={() => setAsked(null)} data-testid="decide-confirm">
        <DialogTitle>
          {asked &&
            t(asked.decision === 'approve' ? 'admin.requests.approveTitle' : 'admin.requests.declineTitle')}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {asked &&
              t(asked.decision === 'approve' ? 'admin.requests.approveText' : 'admin.requests.declineText', {
                shop: asked.request.shopName,
                mobile: formatMobile(asked.request.mobile),
              })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsked(null)}>{t('admin.cancel')}</Button>
          <Button
            variant="contained"
            color={asked?.decision === 'decline' ? 'error' : 'primary'}
            loading={isDeciding}
            onClick={() => void confirm()}
            data-testid="decide-confirm-yes"
          >
            {asked && t(asked.decision === 'approve' ? 'admin.requests.approve' : 'admin.requests.decline')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
