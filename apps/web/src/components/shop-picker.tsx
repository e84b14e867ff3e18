import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** One shop a retailer can narrow a screen to: itself ("My shop") or one of its mini-retailers. */
export type TShopOption = {
  /** The shop's user id, sent as `retailer_id`. */
  id: number;
  /** What the picker shows: "My shop", or the mini-retailer's shop name. */
  label: string;
};

type TShopPickerProps = {
  options: TShopOption[];
  /** The chosen shop's id; undefined for all shops. */
  value: number | undefined;
  onChange: (retailerId: number | undefined) => void;
};

const ALL_SHOPS = '';

/**
 * "Shop": narrows customer_list or the dashboard to one of a retailer's shops, or all of them
 * (spec §3 `retailer_id`). The app shows it only to a retailer with mini-retailers. A chosen id
 * that is not among the options (a link to a shop since removed) shows as its number, not as
 * "All shops", so the screen never claims more than it shows.
 */
export const ShopPicker = ({ options, value, onChange }: TShopPickerProps) => {
  const { t } = useTranslation();
  const isKnown = value === undefined || options.some((option) => option.id === value);
  return (
    <TextField
      select
      label={t('shopFilter.label')}
      value={value === undefined ? ALL_SHOPS : String(value)}
      onChange={(event) =>
        onChange(event.target.value === ALL_SHOPS ? undefined : Number(event.target.value))
      }
      size="small"
      sx={{ minWidth: { sm: 220 } }}
      slotProps={{ htmlInput: { 'data-testid': 'shop-filter' } }}
    >
      <MenuItem value={ALL_SHOPS}>{t('shopFilter.all')}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.id} value={String(option.id)}>
          {option.label}
        </MenuItem>
      ))}
      {isKnown ? null : (
        <MenuItem value={String(value)} sx={{ display: 'none' }}>
          {`#${value}`}
        </MenuItem>
      )}
    </TextField>
  );
};
