import { zodResolver } from '@hookform/resolvers/zod';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useMemo } from 'react';
import type { Resolver } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TArgsFeature } from '../device-controls';
import { LockReasonField, useLockReason } from './lock-reason-field';

/** An argument of a catalogue args schema, as the form shows it. */
type TArgName = 'text' | 'imageUrl' | 'message' | 'phone' | 'packages';
type TArgField = {
  name: TArgName;
  /** 'lines': a list typed one item a line (package names). */
  kind: 'text' | 'multiline' | 'lines';
  type?: 'url' | 'tel';
};

const LOST_MODE_FIELDS: readonly TArgField[] = [
  { name: 'message', kind: 'multiline' },
  { name: 'phone', kind: 'text', type: 'tel' },
];
const PACKAGE_FIELDS: readonly TArgField[] = [{ name: 'packages', kind: 'lines' }];

/** The fields of each feature's arguments (COMMAND_CATALOGUE args schemas). */
const ARG_FIELDS: Record<TArgsFeature, readonly TArgField[]> = {
  wallpaper: [
    { name: 'text', kind: 'multiline' },
    { name: 'imageUrl', kind: 'text', type: 'url' },
  ],
  lost_mode: LOST_MODE_FIELDS,
  antitheft_lost_mode: LOST_MODE_FIELDS,
  app_lock: PACKAGE_FIELDS,
  app_hide_unhide: PACKAGE_FIELDS,
};

/** What the form holds: every field as typed text. */
type TArgsForm = Partial<Record<TArgName, string>>;
/** What is sent as the command's `args`. */
export type TControlArgs = Record<string, unknown>;

/**
 * The typed text as the catalogue's arguments: text trimmed (empty left out), a 'lines' field as
 * its non-empty lines.
 */
const toArgs = (fields: readonly TArgField[], values: TArgsForm): TControlArgs => {
  const args: TControlArgs = {};
  for (const field of fields) {
    const text = values[field.name] ?? '';
    if (field.kind === 'lines') {
      args[field.name] = text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      continue;
    }
    const trimmed = text.trim();
    if (trimmed !== '') args[field.name] = trimmed;
  }
  return args;
};

/** The resolver of a feature's form: the typed text, turned into args, checked by the catalogue schema. */
const argsResolver = (feature: TArgsFeature): Resolver<TArgsForm, unknown, TControlArgs> => {
  const schema = commandSpecOf(feature)?.args ?? z.object({});
  const fields = ARG_FIELDS[feature];
  // The preprocess step takes what the form holds; zod types its input as unknown.
  const formSchema = z.preprocess(
    (values) => toArgs(fields, values as TArgsForm),
    schema,
  ) as unknown as z.ZodType<TControlArgs, TArgsForm>;
  return zodResolver(formSchema);
};

type TControlArgsDialogProps = {
  feature: TArgsFeature | null;
  isBusy: boolean;
  /**
   * The command leaves only a lock screen (lost mode) and the customer has nothing overdue: a
   * reason is asked for too (issue 12) and given to onSubmit.
   */
  needsReason?: boolean | undefined;
  onSubmit: (args: TControlArgs, reason?: string) => void;
  onClose: () => void;
};

/**
 * The small form before a feature that takes arguments is turned on: wallpaper text or image,
 * the lost-mode message and phone number, or the apps to lock or hide. Checked with the command
 * catalogue's args schema; its messages are the app's own, translated, per field.
 */
export const ControlArgsDialog = ({
  feature,
  isBusy,
  needsReason,
  onSubmit,
  onClose,
}: TControlArgsDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={feature !== null}
      onClose={isBusy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      slotProps={{ paper: { 'data-testid': 'control-args-dialog' } as object }}
    >
      {feature ? (
        <>
          <DialogTitle id={titleId}>{t(`controlArgs.titles.${feature}`)}</DialogTitle>
          {/* Keyed by feature, so each opening starts empty. */}
          <ControlArgsForm
            key={feature}
            feature={feature}
            isBusy={isBusy}
            needsReason={needsReason}
            onSubmit={onSubmit}
            onClose={onClose}
          />
        </>
      ) : null}
    </Dialog>
  );
};

type TControlArgsFormProps = Omit<TControlArgsDialogProps, 'feature'> & {
  feature: TArgsFeature;
  /** The submit button's label; "Send" unless the command is being scheduled. */
  submitLabel?: string;
};

/**
 * The fields of a feature's arguments with Cancel and submit, for a dialog's body (this dialog's,
 * or the schedule dialog's second step).
 */
export const ControlArgsForm = ({
  feature,
  isBusy,
  needsReason = false,
  onSubmit,
  onClose,
  submitLabel,
}: TControlArgsFormProps) => {
  const { t } = useTranslation();
  const reason = useLockReason();
  const resolver = useMemo(() => argsResolver(feature), [feature]);
  const fields = ARG_FIELDS[feature];
  const form = useForm<TArgsForm, unknown, TControlArgs>({
    resolver,
    defaultValues: Object.fromEntries(fields.map((field) => [field.name, ''])),
    mode: 'onTouched',
  });
  const submit = form.handleSubmit((args) => {
    if (!needsReason) {
      onSubmit(args);
      return;
    }
    const checked = reason.check();
    if (checked !== null) onSubmit(args, checked);
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="control-args-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1} sx={{ pt: 1 }}>
          {fields.map((field, index) => (
            <Controller
              key={field.name}
              control={form.control}
              name={field.name}
              render={({ field: input, fieldState }) => (
                <TextField
                  id={`control-arg-${field.name}`}
                  name={input.name}
                  value={input.value ?? ''}
                  inputRef={input.ref}
                  onBlur={input.onBlur}
                  onChange={(event) => input.onChange(event.target.value)}
                  label={t(`controlArgs.fields.${field.name}`)}
                  type={field.type ?? 'text'}
                  multiline={field.kind !== 'text'}
                  minRows={field.kind === 'text' ? undefined : 2}
                  autoFocus={index === 0}
                  error={Boolean(fieldState.error)}
                  helperText={
                    fieldState.error
                      ? t(`controlArgs.errors.${field.name}`)
                      : t(`controlArgs.helpers.${field.name}`)
                  }
                  slotProps={{ htmlInput: { 'data-testid': `control-arg-${field.name}` } }}
                  fullWidth
                />
              )}
            />
          ))}
          {needsReason ? <LockReasonField {...reason.field} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isBusy} data-testid="control-args-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isBusy} data-testid="control-args-submit">
          {submitLabel ?? t('controlArgs.send')}
        </Button>
      </DialogActions>
    </form>
  );
};
