import type { TPlan } from '@kisht/domain/plans/plans.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';
import { useListPlansQuery } from '../../../lib/http/plans-api';
import { ALL_PLANS } from '../admin-api';
import { PLAN_TYPE_OPTIONS } from '../app-types';
import { PlanDialog } from './plan-dialog';

/** Which plan the dialog edits: a new one, or an existing plan. */
type TEditing = { kind: 'new' } | { kind: 'edit'; plan: TPlan } | null;

/**
 * The organisation's plans catalogue (issue 14), grouped by app_type: name, price, term and whether
 * retailers can sell it; "Add plan" and each plan's "Edit" open the plan dialog.
 */
export const PlansPanel = () => {
  const { t } = useTranslation();
  const plans = useListPlansQuery(ALL_PLANS);
  const [editing, setEditing] = useState<TEditing>(null);
  const groups = PLAN_TYPE_OPTIONS.map((option) => ({
    ...option,
    plans: (plans.data ?? []).filter((plan) => plan.appType === option.value),
  })).filter((group) => group.plans.length > 0);

  return (
    <Stack spacing={2} data-testid="admin-plans">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          {t('adminPlans.intro')}
        </Typography>
        <Button
          variant="contained"
          onClick={() => setEditing({ kind: 'new' })}
          sx={{ flexShrink: 0 }}
          data-testid="plan-add"
        >
          {t('adminPlans.add')}
        </Button>
      </Stack>
      {plans.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      {plans.data?.length === 0 && <Typography color="text.secondary">{t('adminPlans.empty')}</Typography>}
      {groups.map((group) => (
        <List
          key={group.value}
          disablePadding
          data-testid={`plan-group-${group.value}`}
          subheader={
            <ListSubheader
              disableGutters
              disableSticky
              sx={{ bgcolor: 'transparent', fontWeight: 600, lineHeight: 2.5 }}
            >
              {t(group.labelKey)}
            </ListSubheader>
          }
        >
          {group.plans.map((plan) => (
            <ListItem
              key={plan.id}
              divider
              disableGutters
              data-testid={`plan-${plan.id}`}
              secondaryAction={
                <Button
                  size="small"
                  onClick={() => setEditing({ kind: 'edit', plan })}
                  data-testid={`plan-edit-${plan.id}`}
                >
                  {t('adminPlans.edit')}
                </Button>
              }
            >
              <ListItemText
                sx={{ pr: 7 }}
                primary={
                  <>
                    {plan.name}{' '}
                    <Chip
                      size="small"
                      color={plan.isActive ? 'success' : 'default'}
                      variant="outlined"
                      label={t(plan.isActive ? 'adminPlans.active' : 'adminPlans.inactive')}
                      data-testid={`plan-status-${plan.id}`}
                    />
                  </>
                }
                secondary={
                  <span data-testid={`plan-terms-${plan.id}`}>
                    {formatRupees(plan.pricePaise)} · {t('adminPlans.months', { count: plan.durationMonths })}{' '}
                    ·{' '}
                    {plan.productIds.length === 0
                      ? t('adminPlans.allProducts')
                      : t('adminPlans.someProducts', { count: plan.productIds.length })}
                  </span>
                }
              />
            </ListItem>
          ))}
        </List>
      ))}
      {editing && (
        <PlanDialog plan={editing.kind === 'edit' ? editing.plan : null} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
};
