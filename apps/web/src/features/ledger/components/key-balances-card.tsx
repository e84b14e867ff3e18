import CircleIcon from '@mui/icons-material/Circle';
import HistoryIcon from '@mui/icons-material/History';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { KEY_STOCK_COLOR } from '../../../components/key-stock-color';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { appTypeName } from '../../../lib/app-type-name';
import { appPaths } from '../../../lib/paths';
import { useGetKeyBalancesQuery } from '../ledger-api';

/**
 * Keys per app_type (api/points/getBalanceTypesWithScheme): the signed-in retailer's own, or with
 * `userId` one of its mini-retailers', fetched afresh whenever the card mounts. Each app type the
 * account ever held, with how many keys are left, coloured by its stock level (the server's `level`
 * against the organisation's low-keys threshold: red, amber, green) and said in words too, so the
 * colour is never the only sign; a link to the account's top_up_history and, on the shop's own
 * card, "Request keys" (the key_requests page).
 */
export const KeyBalancesCard = ({ userId }: { userId?: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Asked again each time the card is shown: an enrolment QR made elsewhere spends a key, and no
  // mutation of this app tells the cache so.
  const { data, isLoading, isError, error, refetch } = useGetKeyBalancesQuery(userId, {
    refetchOnMountOrArgChange: true,
  });

  const history = (
    <Button
      size="small"
      startIcon={<HistoryIcon />}
      onClick={() => navigate(appPaths.topUpHistory.href({ userId }))}
      data-testid="key-balances-history"
    >
      {t('pages.top_up_history')}
    </Button>
  );
  return (
    <SectionCard title={t('ledger.balances.title')} action={history} testId="key-balances">
      {isLoading ? (
        <Skeleton variant="rounded" height={80} />
      ) : isError || !data ? (
        <LoadError message={error?.message ?? t('ledger.balances.failed')} onRetry={refetch} />
      ) : data.length === 0 ? (
        <Typography color="textSecondary" data-testid="key-balances-empty">
          {t('ledger.balances.empty')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {data.map((row) => (
            <ListItem
              key={row.appType}
              disableGutters
              secondaryAction={
                <Chip
                  size="small"
                  color={KEY_STOCK_COLOR[row.level]}
                  label={t('ledger.balances.ofType', { count: row.balance })}
                  data-testid={`key-balance-${row.appType}`}
                />
              }
            >
              <ListItemText
                primary={appTypeName(t, row.appType)}
                secondary={
                  <Box
                    component="span"
                    sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                    data-testid={`key-balance-level-${row.appType}`}
                    data-level={row.level}
                  >
                    <CircleIcon
                      aria-hidden
                      sx={{ fontSize: 10, color: `${KEY_STOCK_COLOR[row.level]}.main` }}
                    />
                    {t(`ledger.balances.level.${row.level}`)}
                  </Box>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      {userId === undefined && (
        <Button
          variant="outlined"
          size="small"
          startIcon={<VpnKeyIcon />}
          onClick={() => navigate(appPaths.keyRequests.href())}
          sx={{ mt: 1.5 }}
          data-testid="key-balances-request"
        >
          {t('ledger.balances.request')}
        </Button>
      )}
    </SectionCard>
  );
};
