import HistoryIcon from '@mui/icons-material/History';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { appPaths } from '../../../lib/paths';
import { appTypeName } from '../app-type-label';
import { useGetKeyBalancesQuery } from '../ledger-api';

/**
 * Keys per app_type (api/points/getBalanceTypesWithScheme): the signed-in retailer's own, or with
 * `userId` one of its mini-retailers', fetched afresh whenever the card mounts. Each app type the
 * account ever held, with how many keys are left (0 shown in red: enrolling a customer of that
 * type is refused), and a link to the account's top_up_history.
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
                  color={row.balance > 0 ? 'primary' : 'error'}
                  label={t('ledger.balances.ofType', { count: row.balance })}
                  data-testid={`key-balance-${row.appType}`}
                />
              }
            >
              <ListItemText primary={appTypeName(t, row.appType)} />
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
};
