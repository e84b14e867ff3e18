import { antiTheftDisplay } from '@kisht/domain/plans/anti-theft.rules';
import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime, formatMobile, formatRupees } from '../../../lib/format';
import { appPaths } from '../../../lib/paths';

/** Spec §4 anti-theft display as a chip: Enabled (green) or Disabled (grey, outlined). */
export const AntiTheftDisplayChip = ({ sale }: { sale: TPlanActivation }) => {
  const { t } = useTranslation();
  const display = antiTheftDisplay(sale);
  return (
    <Chip
      size="small"
      color={display === 'enabled' ? 'success' : 'default'}
      variant={display === 'enabled' ? 'filled' : 'outlined'}
      label={t(`antiTheft.display.${display}`)}
      data-testid="anti-theft-display"
      data-display={display}
    />
  );
};

/** One sale's lines: buyer, plan, code, price and when it was sold, with the display chip. */
const SaleSummary = ({ sale }: { sale: TPlanActivation }) => {
  const { t } = useTranslation();
  const name = [sale.firstName, sale.lastName].filter(Boolean).join(' ');
  return (
    <Stack spacing={0.25} sx={{ flex: 1, minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2" noWrap data-testid="anti-theft-sale-name">
          {name}
        </Typography>
        <AntiTheftDisplayChip sale={sale} />
      </Stack>
      <Typography variant="body2" color="textSecondary" noWrap>
        {formatMobile(sale.mobile)} · {sale.planName}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {t('antiTheft.codeLine', { code: sale.code })}
      </Typography>
      <Typography variant="caption" color="textSecondary">
        {t('antiTheft.soldLine', {
          price: formatRupees(sale.pricePaise),
          date: formatDateTime(sale.createdAt),
        })}
        {sale.customerId === null ? ` · ${t('antiTheft.standAlone')}` : ''}
      </Typography>
    </Stack>
  );
};

/**
 * The retailer's anti-theft sales (its own and its mini-retailers'), newest first, each with the
 * spec §4 anti-theft display. A sale to a customer opens customer_details; a stand-alone sale
 * opens nothing.
 */
export const AntiTheftSalesList = ({ sales }: { sales: readonly TPlanActivation[] }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (sales.length === 0)
    return (
      <Typography color="textSecondary" data-testid="anti-theft-sales-empty">
        {t('antiTheft.empty')}
      </Typography>
    );
  return (
    <List disablePadding data-testid="anti-theft-sales">
      {sales.map((sale) => {
        const { customerId } = sale;
        return customerId === null ? (
          <ListItem key={sale.id} divider disableGutters data-testid={`anti-theft-sale-${sale.id}`}>
            <SaleSummary sale={sale} />
          </ListItem>
        ) : (
          <ListItemButton
            key={sale.id}
            divider
            disableGutters
            onClick={() => navigate(appPaths.customerDetails.href(customerId))}
            aria-label={t('antiTheft.openCustomer', { name: `${sale.firstName} ${sale.lastName}`.trim() })}
            data-testid={`anti-theft-sale-${sale.id}`}
          >
            <SaleSummary sale={sale} />
            <ChevronRightIcon color="action" sx={{ ml: 1 }} />
          </ListItemButton>
        );
      })}
    </List>
  );
};
