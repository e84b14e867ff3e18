import { zodResolver } from '@hookform/resolvers/zod';
import type { TControlFeature } from '@kisht/domain/common/enums';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useMemo } from 'react';
import type { Resolver } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TApiError } from '../../../lib/http/base-query';
import type { TArgsFeature } from '../device-controls';
import { isArgsFeature } from '../device-controls';
import type { TReasonFields } from './lock-reason-picker';
import { LockReasonPicker, useLockReason } from './lock-reason-picker';

/** An argument of a catalogue request-args schema, as the form shows it. */
type TArgName = 'text' | 'imageUrl' | 'phone' | 'packages';
type TArgField = {
  name: TArgName;
  /** 'lines': a list typed one item a line (package names). */
  kind: 'text' | 'multiline' | 'lines';
  type?: 'url' | 'tel';
};

/** A lost mode's message is the server's, from the reason category (issue 25); only the number is typed. */
const LOST_MODE_FIELDS: readonly TArgField[] = [{ name: 'phone', kind: 'text', type: 'tel' }];
const PACKAGE_FIELDS: readonly TArgField[] = [{ name: 'packages', kind: 'lines' }];

/** The fields of each feature's arguments (COMMAND_CATALOGUE requestArgs, else args, schemas). */
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

/** The fields a feature's `on` command asks for: none for a feature without arguments. */
const fieldsOf = (feature: TControlFeature): readonly TArgField[] =>
  isArgsFeature(feature) ? ARG_FIELDS[feature] : [];

/**
 * The resolver of a feature's form: the typed text, turned into args, checked by the catalogue
 * schema of what a person sends (requestArgs: a lost mode takes only the phone; else args).
 */
const argsResolver = (feature: TControlFeature): Resolver<TArgsForm, unknown, TControlArgs> => {
  const spec = commandSpecOf(feature);
  const schema = spec?.requestArgs ?? spec?.args ?? z.object({});
  const fields = fieldsOf(feature);
  // The preprocess step takes what the form holds; zod types its input as unknown.
  const formSchema = z.preprocess(
    (values) => toArgs(fields, values as TArgsForm),
    schema,
  ) as unknown as z.ZodType<TControlArgs, TArgsForm>;
  return zodResolver(formSchema);
};

type TControlArgsDialogProps = {
  /** The feature being turned on, or null while the dialog is closed. */
  feature: TControlFeature | null;
  /**
   * What the command gate judges the customer by (commandFactsOf): a restriction asks its reason
   * as the rules want it (LockReasonPicker). Null: no reason is asked here (the schedule dialog
   * asked it on its first step).
   */
  facts: TCommandFacts | null;
  isBusy: boolean;
  /**
   * Sends the command with its arguments (undefined for a feature that takes none) and reason
   * fields; resolves to the server's error, whose words on the reason go under its fields, or null.
   */
  onSubmit: (args: TControlArgs | undefined, reason: TReasonFields) => Promise<TApiError | null>;
  onClose: () => void;
};

/**
 * The small form before a feature is turned on, when it takes arguments or a reason: wallpaper
 * text or image, the lost-mode phone number (its message comes from the reason), or the apps to
 * lock or hide; and, for a restriction, why (issue 25). Checked with the command catalogue's
 * schema and the reason rules; its messages are the app's own, translated, per field.
 */
export const ControlArgsDialog = ({ feature, facts, isBusy, onSubmit, onClose }: TControlArgsDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  // A feature with arguments has its own title; any other says "Turn on: <feature>".
  const title =
    feature === null
      ? ''
      : isArgsFeature(feature)
        ? t(`controlArgs.titles.${feature}`)
        : t('controlArgs.turnOn', { feature: t(`controlFeature.${feature}`) });
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
          <DialogTitle id={titleId}>{title}</DialogTitle>
          {/* Keyed by feature, so each opening starts empty. */}
          <ControlArgsForm
            key={feature}
            feature={feature}
            facts={facts}
            isBusy={isBusy}
            onSubmit={onSubmit}
            onClose={onClose}
          />
        </>
      ) : null}
    </Dialog>
  );
};

type TControlArgsFormProps = Omit<TControlArgsDialogProps, 'feature'> & {
  feature: TControlFeature;
  /** The submit button's label; "Send" unless the command is being scheduled. */
  submitLabel?: string;
};

/**
 * The fields of a feature's arguments with Cancel and submit, for a dialog's body (this dialog's,
 * or the schedule dialog's second step).
 */
export const ControlArgsForm = ({
  feature,
  facts,
  isBusy,
  onSubmit,
  onClose,
  submitLabel,
}: TControlArgsFormProps) => {
  const { t } = useTranslation();
  const reason = useLockReason(facts, commandSpecOf(feature)?.on ?? null);
  const resolver = useMemo(() => argsResolver(feature), [feature]);
  const fields = fieldsOf(feature);
  const form = useForm<TArgsForm, unknown, TControlArgs>({
    resolver,
    defaultValues: Object.fromEntries(fields.map((field) => [field.name, ''])),
    mode: 'onTouched',
  });
  const submit = (event: FormEvent) => {
    // Both checks run, so every field's error shows at once.
    const given = reason.check();
    void form.handleSubmit(async (args) => {
      if (given === null) return;
      const error = await onSubmit(isArgsFeature(feature) ? args : undefined, given);
      reason.showServerErrors(error);
    })(event);
  };

  return (
    <form noValidate onSubmit={submit} data-testid="control-args-form">
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
          {reason.field ? <LockReasonPicker {...reason.field} /> : null}
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
