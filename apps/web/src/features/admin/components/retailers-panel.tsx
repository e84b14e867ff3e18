import type { TAdminRetailer } from '@kisht/domain/ledger/ledger.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMobile } from '../../../lib/format';
import { useListAdminRetailersQuery } from '../../../lib/http/admin-retailers-api';
import { CreditKeysDialog } from './credit-keys-dialog';

/** How long typing pauses before the search is sent, ms. */
const SEARCH_DELAY_MS = 300;

/** The organisation's retailers, searched by name, shop or mobile, each with "Credit keys". */
export const RetailersPanel = () => {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [crediting, setCrediting] = useState<TAdminRetailer | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const retailers = useListAdminRetailersQuery(search);

  return (
    <Stack spacing={2}>
      <TextField
        label={t('admin.retailers.search')}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'retailer-search', maxLength: 60 } }}
      />
      {retailers.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      {retailers.data?.length === 0 && (
        <Typography color="text.secondary">{t('admin.retailers.empty')}</Typography>
      )}
      <List disablePadding>
        {retailers.data?.map((retailer) => (
          <ListItem
            key={retailer.id}
            divider
            data-testid={`retailer-${retailer.id}`}
            secondaryAction={
              <Button
                size="small"
                onClick={() => setCrediting(retailer)}
                data-testid={`credit-${retailer.id}`}
              >
                {t('admin.retailers.credit')}
              </Button>
            }
          >
            <ListItemText
              primary={
                <>
                  {retailer.shopName ?? retailer.name}{' '}
                  {!retailer.isActive && <Chip size="small" label={t('admin.retailers.inactive')} />}
                </>
              }
              secondary={`${retailer.name} · ${formatMobile(retailer.mobile)}`}
            />
          </ListItem>
        ))}
      </List>
      {crediting && <CreditKeysDialog retailer={crediting} onClose={() => setCrediting(null)} />}
    </Stack>
  );
};
