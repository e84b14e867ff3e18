import {
  DEFAULT_REMINDER_OFFSETS,
  REMINDER_CHANNELS,
  type TReminderChannel,
} from '@kisht/domain/reminders/reminders.rules';
import type { TReminderSettings } from '@kisht/domain/reminders/reminders.schema';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { channelKey, offsetWords } from '../reminder-words';
import { useGetReminderSettingsQuery, useSaveReminderSettingsMutation } from '../reminders-api';

/** The days a retailer picks from, days from the due date (others saved through the API show too). */
const DAY_CHOICES = [-7, -3, -1, 0, 1, 3, 7, 15, 30];

/** A new schedule starts as incumbents' usual one, on every channel. */
const STARTING_SCHEDULE: TReminderSettings = {
  offsetsDays: [...DEFAULT_REMINDER_OFFSETS],
  channels: [...REMINDER_CHANNELS],
};

const toggled = <T,>(values: readonly T[], value: T): T[] =>
  values.includes(value) ? values.filter((v) => v !== value) : [...values, value];

/**
 * "Payment reminders" (issue 29), on the collections view: when unpaid instalments are reminded
 * (days before, on and after the due date) and how (phone, SMS, WhatsApp), with the quiet hours
 * said. The retailer edits it (`canEdit`); mini-retailers and the organisation admin read it.
 */
export const ReminderSettingsCard = ({ canEdit }: { canEdit: boolean }) => {
  const { t } = useTranslation();
  const settings = useGetReminderSettingsQuery();
  const [save, saving] = useSaveReminderSettingsMutation();
  const [draft, setDraft] = useState<TReminderSettings | null | undefined>(undefined);
  const title = t('reminders.settings.title');
  if (settings.isLoading) return <Skeleton variant="rounded" height={120} />;
  if (settings.isError) return <LoadError message={settings.error?.message} onRetry={settings.refetch} />;
  const saved = settings.data ?? null;
  const editing = draft !== undefined;
  const shown = editing ? draft : saved;
  const days = [...new Set([...DAY_CHOICES, ...(shown?.offsetsDays ?? [])])].sort((a, b) => a - b);

  const submit = async () => {
    const result = await save({ reminders: draft ?? null });
    if ('data' in result) {
      enqueueSnackbar(t('reminders.settings.saved'), { variant: 'success' });
      setDraft(undefined);
    }
  };

  return (
    <SectionCard
      title={title}
      testId="reminder-settings-card"
      action={
        canEdit && !editing ? (
          <Button size="small" onClick={() => setDraft(saved)} data-testid="reminder-settings-edit">
            {t('reminders.settings.edit')}
          </Button>
        ) : undefined
      }
    >
      {!editing ? (
        <Typography variant="body2" data-testid="reminder-settings-summary">
          {saved
            ? t('reminders.settings.summary', {
                days: saved.offsetsDays.map((offset) => offsetWords(t, offset)).join(', '),
                channels: saved.channels.map((channel) => t(channelKey(channel))).join(', '),
              })
            : t('reminders.settings.none')}
        </Typography>
      ) : (
        <Stack spacing={1.5}>
          <FormControlLabel
            control={
              <Switch
                checked={draft !== null}
                onChange={(event) => setDraft(event.target.checked ? (saved ?? STARTING_SCHEDULE) : null)}
                data-testid="reminder-settings-on"
              />
            }
            label={t('reminders.settings.on')}
          />
          {draft ? (
            <>
              <Typography variant="subtitle2" component="p">
                {t('reminders.settings.days')}
              </Typography>
              <Stack
                direction="row"
                sx={{ flexWrap: 'wrap', gap: 1 }}
                role="group"
                aria-label={t('reminders.settings.days')}
              >
                {days.map((offset) => {
                  const isOn = draft.offsetsDays.includes(offset);
                  return (
                    <Chip
                      key={offset}
                      label={offsetWords(t, offset)}
                      color={isOn ? 'primary' : 'default'}
                      variant={isOn ? 'filled' : 'outlined'}
                      aria-pressed={isOn}
                      onClick={() => setDraft({ ...draft, offsetsDays: toggled(draft.offsetsDays, offset) })}
                      data-testid={`reminder-day-${offset}`}
                    />
                  );
                })}
              </Stack>
              <FormGroup row aria-label={t('reminders.settings.channels')}>
                {REMINDER_CHANNELS.map((channel: TReminderChannel) => (
                  <FormControlLabel
                    key={channel}
                    control={
                      <Checkbox
                        checked={draft.channels.includes(channel)}
                        onChange={() => setDraft({ ...draft, channels: toggled(draft.channels, channel) })}
                        data-testid={`reminder-channel-${channel}`}
                      />
                    }
                    label={t(channelKey(channel))}
                  />
                ))}
              </FormGroup>
            </>
          ) : null}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => setDraft(undefined)}>{t('common.cancel')}</Button>
            <Button
              variant="contained"
              onClick={() => void submit()}
              loading={saving.isLoading}
              disabled={draft !== null && (draft.offsetsDays.length === 0 || draft.channels.length === 0)}
              data-testid="reminder-settings-save"
            >
              {t('reminders.settings.save')}
            </Button>
          </Stack>
        </Stack>
      )}
      <Typography variant="caption" color="textSecondary" component="p" sx={{ mt: 1 }}>
        {t('reminders.settings.quietHours')}
      </Typography>
    </SectionCard>
  );
};
