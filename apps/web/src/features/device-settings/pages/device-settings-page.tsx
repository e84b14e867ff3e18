import type { TControlFeature } from '@kisht/domain/common/enums';
import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { Control, FieldPath, UseFormReturn } from 'react-hook-form';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { getUserType } from '../../../lib/auth-storage';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths } from '../../../lib/paths';
import { useGetDeviceSettingsQuery, useSaveDeviceSettingsMutation } from '../device-settings-api';
import type { TDeviceSettingsForm, TNumberField } from '../device-settings-form';
import {
  deviceSettingsResolver,
  formFieldOfSetting,
  formFromSettings,
  LOCK_SCREEN_TEXT_BOUNDS,
  NUMBER_BOUNDS,
  NUMBER_ERROR_KEYS,
  SETTINGS_FEATURE_GROUPS,
  SETTINGS_FEATURES,
} from '../device-settings-form';

const FORBIDDEN_STATUS = 403;

type TSettingsFormApi = UseFormReturn<TDeviceSettingsForm, unknown, TDeviceControlSettings>;

/** What a mini-retailer (or anyone the server refuses) sees instead of the form. */
const RetailerOnly = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card data-testid="device-settings-retailer-only">
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
          <AdminPanelSettingsIcon color="action" sx={{ fontSize: 56 }} />
          <Typography variant="h6" component="p">
            {t('deviceSettings.retailerOnly.title')}
          </Typography>
          <Typography color="textSecondary">{t('deviceSettings.retailerOnly.body')}</Typography>
          <Button variant="contained" onClick={() => navigate(appPaths.dashboard.href())}>
            {t('common.goToDashboard')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** A titled block of the form. */
const SettingsSection = ({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) => (
  <Card data-testid={testId}>
    <CardContent>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);

type TSwitchFieldProps = {
  control: Control<TDeviceSettingsForm, unknown, TDeviceControlSettings>;
  name: FieldPath<TDeviceSettingsForm>;
  label: string;
  helperText?: string;
  testId: string;
};

/** A switch bound to a boolean of the form, with an explanation below. */
const SwitchField = ({ control, name, label, helperText, testId }: TSwitchFieldProps) => (
  <Controller
    control={control}
    name={name}
    render={({ field }) => (
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={field.value === true}
              onChange={(_event, checked) => field.onChange(checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { ref: field.ref, 'data-testid': testId } as object }}
            />
          }
          label={label}
        />
        {helperText ? <FormHelperText sx={{ mt: -0.5, ml: 6 }}>{helperText}</FormHelperText> : null}
      </Box>
    )}
  />
);

type TNumberFieldProps = {
  form: TSettingsFormApi;
  name: TNumberField;
  label: string;
  unit: string;
  helperText: string;
  testId: string;
};

/** A whole number of hours or days, its error in the app's words (or the server's). */
const NumberField = ({ form, name, label, unit, helperText, testId }: TNumberFieldProps) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => {
        const message = fieldErrorText(fieldState.error, () =>
          t(NUMBER_ERROR_KEYS[name], NUMBER_BOUNDS[name]),
        );
        return (
          <TextField
            id={`device-settings-${name.replace('.', '-')}`}
            name={field.name}
            label={label}
            value={field.value}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(event.target.value.replace(/\D/g, '').slice(0, 4))}
            error={Boolean(message)}
            helperText={message ?? helperText}
            required
            sx={{ ml: { xs: 0, sm: 6 }, maxWidth: 280 }}
            slotProps={{
              htmlInput: { inputMode: 'numeric', autoComplete: 'off', 'data-testid': testId },
              input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> },
            }}
          />
        );
      }}
    />
  );
};

/** The allowed list: the family's defaults, or a ticked list of the control features. */
const AllowedControlsSection = ({ form }: { form: TSettingsFormApi }) => {
  const { t } = useTranslation();
  const useFamilyDefaults = useWatch({ control: form.control, name: 'useFamilyDefaults' });
  const ticked = useWatch({ control: form.control, name: 'allowedControls' });
  const setTicked = (next: TControlFeature[]) =>
    form.setValue('allowedControls', next, { shouldDirty: true, shouldValidate: true });
  const serverError = form.formState.errors.allowedControls?.message;
  return (
    <SettingsSection title={t('deviceSettings.allowed.title')} testId="device-settings-allowed">
      <SwitchField
        control={form.control}
        name="useFamilyDefaults"
        label={t('deviceSettings.allowed.useDefaults')}
        helperText={t(
          useFamilyDefaults ? 'deviceSettings.allowed.defaultsHelp' : 'deviceSettings.allowed.listHelp',
        )}
        testId="device-settings-use-defaults"
      />
      {useFamilyDefaults ? null : (
        <Stack spacing={1.5} sx={{ mt: 1.5 }} data-testid="device-settings-feature-list">
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              onClick={() => setTicked([...SETTINGS_FEATURES])}
              data-testid="device-settings-all"
            >
              {t('deviceSettings.allowed.selectAll')}
            </Button>
            <Button size="small" onClick={() => setTicked([])} data-testid="device-settings-none">
              {t('deviceSettings.allowed.clear')}
            </Button>
          </Stack>
          {SETTINGS_FEATURE_GROUPS.map(({ group, features }) => (
            <Box key={group} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="overline" color="textSecondary">
                {t(`deviceSettings.allowed.groups.${group}`)}
              </Typography>
              <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {features.map((feature) => (
                  <FormControlLabel
                    key={feature}
                    label={
                      feature === 'lock'
                        ? t('deviceSettings.allowed.lockPair')
                        : t(`controlFeature.${feature}`)
                    }
                    control={
                      <Checkbox
                        checked={ticked.includes(feature)}
                        onChange={(_event, checked) =>
                          setTicked(
                            checked
                              ? [...ticked, feature]
                              : ticked.filter((candidate) => candidate !== feature),
                          )
                        }
                        slotProps={{
                          input: { 'data-testid': `device-settings-feature-${feature}` } as object,
                        }}
                      />
                    }
                  />
                ))}
              </FormGroup>
            </Box>
          ))}
          {ticked.length === 0 ? (
            <Alert severity="warning" data-testid="device-settings-none-warning">
              {t('deviceSettings.allowed.noneWarning')}
            </Alert>
          ) : null}
          {serverError ? (
            <Alert severity="error" data-testid="device-settings-allowed-error">
              {serverError}
            </Alert>
          ) : null}
        </Stack>
      )}
    </SettingsSection>
  );
};

/**
 * The "off, or a number" settings of the timing section, in the order shown: the paid-through
 * lock (grace days), the offline limit (hours) and the command expiry (hours). Each is a switch
 * (its explanation for on and for off) and, while on, its number.
 */
const TIMING_SETTINGS = [
  {
    isOn: 'hasPaidThrough',
    number: 'paidThroughGraceDays',
    label: 'deviceSettings.timing.paidThrough',
    on: 'deviceSettings.timing.paidThroughOn',
    off: 'deviceSettings.timing.paidThroughOff',
    numberLabel: 'deviceSettings.timing.graceDays',
    unit: 'deviceSettings.daysUnit',
    testIds: ['device-settings-paid-through', 'device-settings-grace-days'],
  },
  {
    isOn: 'hasOfflineLimit',
    number: 'offlineLockAfterHours',
    label: 'deviceSettings.timing.offlineLimit',
    on: 'deviceSettings.timing.offlineLimitOn',
    off: 'deviceSettings.timing.offlineLimitOff',
    numberLabel: 'deviceSettings.timing.offlineHours',
    unit: 'deviceSettings.hoursUnit',
    testIds: ['device-settings-offline-limit', 'device-settings-offline-hours'],
  },
  {
    isOn: 'hasCommandExpiry',
    number: 'commandExpiryHours',
    label: 'deviceSettings.timing.expiry',
    on: 'deviceSettings.timing.expiryOn',
    off: 'deviceSettings.timing.expiryOff',
    numberLabel: 'deviceSettings.timing.expiryHours',
    unit: 'deviceSettings.hoursUnit',
    testIds: ['device-settings-expiry', 'device-settings-expiry-hours'],
  },
] as const satisfies readonly {
  isOn: FieldPath<TDeviceSettingsForm>;
  number: TNumberField;
  label: ParseKeys;
  on: ParseKeys;
  off: ParseKeys;
  numberLabel: ParseKeys;
  unit: ParseKeys;
  testIds: readonly [string, string];
}[];

/** The timing section: each of TIMING_SETTINGS off, or a number of days or hours. */
const TimingSection = ({ form }: { form: TSettingsFormApi }) => {
  const { t } = useTranslation();
  const isOn = useWatch({ control: form.control, name: TIMING_SETTINGS.map((setting) => setting.isOn) });
  return (
    <SettingsSection title={t('deviceSettings.timing.title')} testId="device-settings-timing">
      <Stack spacing={1.5}>
        {TIMING_SETTINGS.map((setting, index) => (
          <Stack key={setting.isOn} spacing={1.5}>
            <SwitchField
              control={form.control}
              name={setting.isOn}
              label={t(setting.label)}
              helperText={t(isOn[index] ? setting.on : setting.off)}
              testId={setting.testIds[0]}
            />
            {isOn[index] ? (
              <NumberField
                form={form}
                name={setting.number}
                label={t(setting.numberLabel)}
                unit={t(setting.unit)}
                helperText={t('deviceSettings.rangeHelp', NUMBER_BOUNDS[setting.number])}
                testId={setting.testIds[1]}
              />
            ) : null}
          </Stack>
        ))}
      </Stack>
    </SettingsSection>
  );
};

/** The auto-lock ladder: off, or a reminder before the due date, a lock when overdue, an unlock when paid. */
const AutoLockSection = ({ form }: { form: TSettingsFormApi }) => {
  const { t } = useTranslation();
  const [hasAutoLock, hasReminder, hasLock] = useWatch({
    control: form.control,
    name: ['hasAutoLock', 'autoLock.hasReminder', 'autoLock.hasLock'],
  });
  return (
    <SettingsSection title={t('deviceSettings.autoLock.title')} testId="device-settings-auto-lock">
      <Stack spacing={1.5}>
        <SwitchField
          control={form.control}
          name="hasAutoLock"
          label={t('deviceSettings.autoLock.enabled')}
          helperText={t(
            hasAutoLock ? 'deviceSettings.autoLock.enabledOn' : 'deviceSettings.autoLock.enabledOff',
          )}
          testId="device-settings-auto-lock-on"
        />
        {hasAutoLock ? (
          <Stack spacing={1.5} sx={{ pl: { xs: 1, sm: 2 }, borderLeft: 2, borderColor: 'divider' }}>
            <SwitchField
              control={form.control}
              name="autoLock.hasReminder"
              label={t('deviceSettings.autoLock.reminder')}
              testId="device-settings-reminder"
            />
            {hasReminder ? (
              <NumberField
                form={form}
                name="autoLock.reminderDaysBefore"
                label={t('deviceSettings.autoLock.reminderDays')}
                unit={t('deviceSettings.daysUnit')}
                helperText={t(
                  'deviceSettings.autoLock.reminderHelp',
                  NUMBER_BOUNDS['autoLock.reminderDaysBefore'],
                )}
                testId="device-settings-reminder-days"
              />
            ) : null}
            <SwitchField
              control={form.control}
              name="autoLock.hasLock"
              label={t('deviceSettings.autoLock.lock')}
              testId="device-settings-lock"
            />
            {hasLock ? (
              <NumberField
                form={form}
                name="autoLock.lockAfterDaysOverdue"
                label={t('deviceSettings.autoLock.lockDays')}
                unit={t('deviceSettings.daysUnit')}
                helperText={t(
                  'deviceSettings.autoLock.lockHelp',
                  NUMBER_BOUNDS['autoLock.lockAfterDaysOverdue'],
                )}
                testId="device-settings-lock-days"
              />
            ) : null}
            <SwitchField
              control={form.control}
              name="autoLock.autoUnlock"
              label={t('deviceSettings.autoLock.autoUnlock')}
              helperText={t('deviceSettings.autoLock.autoUnlockHelp')}
              testId="device-settings-auto-unlock"
            />
          </Stack>
        ) : null}
      </Stack>
    </SettingsSection>
  );
};

/**
 * What a locked phone shows under the retailer's name and phone and the amount overdue: the
 * organisation's "how to pay" text (a UPI id, the shop's address), or nothing. Emergency calls
 * always work on a locked phone; the screen says so whatever this text is.
 */
const LockScreenSection = ({ form }: { form: TSettingsFormApi }) => {
  const { t } = useTranslation();
  const hasText = useWatch({ control: form.control, name: 'hasLockScreenText' });
  return (
    <SettingsSection
      title={t('deviceSettings.lockScreen.title')}
      testId="device-settings-lock-screen-section"
    >
      <Stack spacing={1}>
        <SwitchField
          control={form.control}
          name="hasLockScreenText"
          label={t('deviceSettings.lockScreen.enabled')}
          helperText={t(
            hasText ? 'deviceSettings.lockScreen.enabledOn' : 'deviceSettings.lockScreen.enabledOff',
          )}
          testId="device-settings-lock-screen"
        />
        {hasText ? (
          <Controller
            control={form.control}
            name="lockScreenText"
            render={({ field, fieldState }) => {
              const message = fieldErrorText(fieldState.error, () =>
                t('deviceSettings.lockScreen.error', LOCK_SCREEN_TEXT_BOUNDS),
              );
              return (
                <TextField
                  id="device-settings-lock-screen-text"
                  name={field.name}
                  label={t('deviceSettings.lockScreen.text')}
                  value={field.value}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  onChange={(event) => field.onChange(event.target.value)}
                  error={Boolean(message)}
                  helperText={message ?? t('deviceSettings.lockScreen.help', LOCK_SCREEN_TEXT_BOUNDS)}
                  required
                  multiline
                  minRows={2}
                  sx={{ ml: { xs: 0, sm: 6 } }}
                  slotProps={{
                    htmlInput: {
                      maxLength: LOCK_SCREEN_TEXT_BOUNDS.max + 20,
                      'data-testid': 'device-settings-lock-screen-text',
                    },
                  }}
                />
              );
            }}
          />
        ) : null}
        <Alert severity="info" icon={false} data-testid="device-settings-emergency-calls">
          {t('deviceSettings.lockScreen.emergencyCalls')}
        </Alert>
      </Stack>
    </SettingsSection>
  );
};

/** The form, from the saved settings; Save PUTs them and puts the server's field errors on their fields. */
const DeviceSettingsForm = ({ settings }: { settings: TDeviceControlSettings }) => {
  const { t } = useTranslation();
  const [saveSettings, saveState] = useSaveDeviceSettingsMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TDeviceSettingsForm, unknown, TDeviceControlSettings>({
    resolver: deviceSettingsResolver,
    defaultValues: formFromSettings(settings),
    mode: 'onTouched',
  });

  const save = form.handleSubmit(async (payload) => {
    setServerMessage(null);
    const result = await saveSettings(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOfSetting) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    form.reset(formFromSettings(result.data));
    enqueueSnackbar(t('deviceSettings.saved'), { variant: 'success' });
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="device-settings-form">
      <Stack spacing={2}>
        <AllowedControlsSection form={form} />
        <TimingSection form={form} />
        <AutoLockSection form={form} />
        <LockScreenSection form={form} />
        {serverMessage ? (
          <Alert severity="error" data-testid="device-settings-error">
            {serverMessage}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button
            onClick={() => form.reset()}
            disabled={!form.formState.isDirty || saveState.isLoading}
            data-testid="device-settings-reset"
          >
            {t('deviceSettings.discard')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            loading={saveState.isLoading}
            disabled={!form.formState.isDirty}
            data-testid="device-settings-save"
          >
            {t('deviceSettings.save')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
};

/**
 * device_settings: the organisation's device-control settings, for its retailer — which controls
 * customer_details offers (the phone family's defaults, or a ticked list), when an offline phone
 * locks itself, when an undelivered command expires, the auto-lock ladder, and what a locked phone
 * says about how to pay. A mini-retailer
 * (or anyone the server refuses with 403) is told only the retailer can change them.
 */
export const DeviceSettingsPage = () => {
  const { t } = useTranslation();
  const isMiniRetailer = getUserType() === 'miniretailer';
  const settings = useGetDeviceSettingsQuery(undefined, {
    skip: isMiniRetailer,
    refetchOnMountOrArgChange: true,
  });

  const renderBody = () => {
    if (isMiniRetailer) return <RetailerOnly />;
    if (settings.isLoading) return <PageSkeleton />;
    if (isApiError(settings.error) && settings.error.status === FORBIDDEN_STATUS) return <RetailerOnly />;
    if (!settings.data) {
      return (
        <LoadError
          message={isApiError(settings.error) ? settings.error.message : undefined}
          onRetry={settings.refetch}
        />
      );
    }
    return <DeviceSettingsForm settings={settings.data} />;
  };

  return (
    <>
      <PageHeader title={t('pages.device_settings')} subtitle={t('deviceSettings.subtitle')} />
      {renderBody()}
    </>
  );
};
